/**
 * Typed errors for the whole house. Each carries the context a user needs to
 * fix the problem (file and line, config key, port, command, sequence number),
 * and the CLI prints `message` as is: write it as a sentence that names the problem.
 */
export type ErrorContext = Record<string, string | number | boolean | undefined>;

export class DicerigError extends Error {
  readonly context: ErrorContext;
  constructor(message: string, context: ErrorContext = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.context = context;
  }
}

/** Bad input data: a roll log, a die definition, a number on the command line. */
export class InputError extends DicerigError {
  constructor(
    readonly problem: string,
    readonly where: { file?: string; line?: number; column?: string } = {},
    options?: { cause?: unknown },
  ) {
    super(InputError.describe(problem, where), { ...where }, options);
  }

  private static describe(problem: string, where: { file?: string; line?: number; column?: string }): string {
    const at = [where.file, where.line !== undefined ? `line ${where.line}` : undefined, where.column ? `column "${where.column}"` : undefined]
      .filter(Boolean)
      .join(', ');
    return at ? `${at}: ${problem}` : problem;
  }
}

/** A configuration value that cannot be used, named by its key path (the empty key: the whole file). */
export class ConfigError extends DicerigError {
  constructor(
    readonly key: string,
    readonly problem: string,
    readonly file?: string,
  ) {
    // The empty key is the file as a whole (it cannot be read or parsed): no key to name.
    super(`${file ? `${file}: ` : ''}${key === '' ? '' : `config key "${key}": `}${problem}`, { key, file });
  }
}

/** Several problems of one config file, all reported at once; `key` names the first, `problems` lists each. */
export class ConfigProblems extends ConfigError {
  static readonly SHOWN = 15;
  constructor(
    readonly problems: readonly { readonly key: string; readonly problem: string }[],
    file?: string,
  ) {
    const first = problems[0] ?? { key: '', problem: 'is not valid' };
    super(first.key, first.problem, file);
    // A hostile file can hold thousands; a person reads the first screenful (and the CLI prints 2,000 characters).
    const shown = problems.slice(0, ConfigProblems.SHOWN).map((p) => `  ${new ConfigError(p.key, p.problem, file).message}`);
    const rest = problems.length > ConfigProblems.SHOWN ? `\n  ... and ${problems.length - ConfigProblems.SHOWN} more` : '';
    this.message = `${file ?? 'the config'} has ${problems.length} problems:\n${shown.join('\n')}${rest}`;
  }
}

/** A request outside what a computation supports (e.g. an exact test over its size cap). */
export class LimitError extends DicerigError {}
