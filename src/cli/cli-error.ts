/** A failure the user can act on: the CLI prints the message on one line and exits with the code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message)
  }
}
