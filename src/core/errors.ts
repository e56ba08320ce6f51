// Errors of our own: one base class with stable codes (model: undici lib/core/errors.js).

export type ErrorCode = 'E_CONFIG' | 'E_CONFIG_ENV' | 'E_ARGS' | 'E_UNREACHABLE' | 'E_OPENAPI' | 'E_INTERNAL';

/** Base of every error the tool raises on purpose. `problems` are shown one per line. */
export class ConformanceError extends Error {
  readonly code: ErrorCode;
  readonly problems: string[];
  constructor(code: ErrorCode, message: string, problems: string[] = []) {
    super(message);
    this.name = 'ConformanceError';
    this.code = code;
    this.problems = problems.length > 0 ? problems : [message];
  }
}

/** The config file or its environment variables are wrong; every problem names its path. */
export class ConfigError extends ConformanceError {
  constructor(problems: string[], code: ErrorCode = 'E_CONFIG') {
    super(code, problems.length === 1 ? problems[0] : `${problems.length} problems in the config`, problems);
    this.name = 'ConfigError';
  }
}

/** The target cannot be reached at all: the audit cannot run. */
export class UnreachableError extends ConformanceError {
  constructor(message: string) {
    super('E_UNREACHABLE', message);
    this.name = 'UnreachableError';
  }
}
