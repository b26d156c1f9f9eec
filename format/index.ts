// How the CLI and the dashboard show sizes and times to people (units.ts): the one door of
// format/, the code those two share.

export { formatBytes, formatTime } from './units.ts';
