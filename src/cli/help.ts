/** `--help` texts: the overview and one page per command. */
import type { Command } from './command';
import { DEFAULT_URL, TOKEN_ENV, URL_ENV } from './context';
import { SECRET_ENV } from './secret';

const GLOBAL_DETAILS = [
  `--url URL          the participant's JSON Ledger API (default: $${URL_ENV}, else ${DEFAULT_URL})`,
  '--timeout MS       deadline of each request in milliseconds (default 30000)',
  '--max-response-mb N  largest answer held in memory, in MiB (default 64; update lists stream and are not capped)',
  '--json             machine-readable output on stdout',
  '--verbose          log each request (method, path, status, time) to stderr',
  '-h, --help         show help',
  '--version          show the version',
];

export function overview(commands: readonly Command[]): string[] {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'canton-ledger: read and write a Canton participant through the JSON Ledger API v2.',
    '',
    'Usage: canton-ledger [global options] <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Global options:',
    ...GLOBAL_DETAILS.map((l) => `  ${l}`),
    '',
    'Environment:',
    `  ${URL_ENV}          participant URL (overridden by --url)`,
    `  ${TOKEN_ENV}        bearer token; read only from here, never from the command line`,
    `  ${SECRET_ENV}  shared secret of the demo participant (participant, token commands)`,
    '',
    'Exit status: 0 success, 1 API or validation error, 2 usage error, 3 outcome unknown (a write whose',
    'answer was lost: submit, vet, upload-dar; the message says how to find out and retry safely),',
    '4 and 5 doctor found requests the participant ignores in part (4) or refuses (5), 130 interrupted (Ctrl-C).',
    "Run 'canton-ledger <command> --help' for a command's options.",
  ];
}

export function commandHelp(c: Command): string[] {
  return [
    `Usage: canton-ledger ${c.synopsis}`,
    '',
    c.summary + '.',
    ...(c.details.length > 0 ? ['', ...c.details.map((l) => `  ${l}`)] : []),
    '',
    'Global options:',
    ...GLOBAL_DETAILS.map((l) => `  ${l}`),
  ];
}
