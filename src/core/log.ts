/** The logger the core writes to; the extension backs it with a LogOutputChannel, the CLI with stderr. */
export interface Logger {
  /**
   * False when trace lines are dropped, so that a caller can skip building one (a request body, redacted).
   * Absent: they may be kept.
   */
  readonly tracing?: boolean;
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = {
  tracing: false,
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** Writes the trace line `message` builds only when the logger keeps trace lines (building one can cost: a redacted body). */
export function traceLazily(logger: Logger, message: () => string): void {
  if (logger.tracing !== false) logger.trace(message());
}
