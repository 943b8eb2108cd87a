// A release that cannot go on: the message says what is wrong, the hint what to
// do; exit 2 for a wrong command line, 3 for anything else (README, "Exit codes").
export class ReleaseError extends Error {
  constructor(
    message: string,
    readonly hint: string,
    readonly exitCode: 2 | 3 = 3,
  ) {
    super(message);
  }
}
