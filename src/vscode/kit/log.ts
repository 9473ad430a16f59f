import vscode = require('vscode');
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';

/**
 * The core Logger on top of a LogOutputChannel: the level comes from "Developer: Set Log Level",
 * and every line passes the redactor first, whatever its level.
 */
export function channelLogger(channel: vscode.LogOutputChannel, redactor: Redactor): Logger {
  return {
    get tracing() {
      return channel.logLevel <= vscode.LogLevel.Trace;
    },
    trace: (m) => channel.logLevel <= vscode.LogLevel.Trace && channel.trace(redactor.redact(m)),
    debug: (m) => channel.logLevel <= vscode.LogLevel.Debug && channel.debug(redactor.redact(m)),
    info: (m) => channel.info(redactor.redact(m)),
    warn: (m) => channel.warn(redactor.redact(m)),
    error: (m) => channel.error(redactor.redact(m)),
  };
}
