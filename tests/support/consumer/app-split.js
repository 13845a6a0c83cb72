// A consumer page of the default entry: unbundled through an import map, or bundled by esbuild.
import * as nostr from 'nostr-agents';
import { runChecks, reportToPage } from './checks.js';

reportToPage(runChecks(nostr, 'browser split'));
