/** The CLI's environment variables: read by `canton-ledger`, set by the extension when it starts the CLI (its MCP server). */
export const URL_ENV = 'CANTON_LEDGER_URL';
export const TOKEN_ENV = 'CANTON_LEDGER_TOKEN';
