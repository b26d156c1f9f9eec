// What a page module of the dashboard is given (main.ts, the shell, makes it for the route):
// the element to render into, the route's argument, and a way to another route.

export interface Page {
  /** The main element to render into. */
  main: HTMLElement;
  /** The route's argument (`notes` in `#/search/notes`), or ''. */
  argument: string;
  /** Goes to another route. */
  go(route: string): void;
}
