// A consumer page of the single-file entry (the .wasm embedded): unbundled or bundled by esbuild.
import * as nostr from 'nostr-agents/single';
import { runChecks, reportToPage } from './checks.js';

reportToPage(runChecks(nostr, 'browser single'));
