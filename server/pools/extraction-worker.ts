// The extraction pool's worker entry (Piscina): reads an uploaded file from its temporary path
// and turns it into pages with the extractors in extract/. Hostile files are bounded here by the
// extractors' own limits, and by the pool's time and memory limits on this thread.

import { extractFile } from '../../extract/index.ts';
import { extractionTaskRunner } from './extraction-task.ts';

export default extractionTaskRunner(extractFile);
