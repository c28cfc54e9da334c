/**
 * A handler's answer with a status other than its route's: POST /v1/inquiries answers 200, not 201, when the
 * inquiry was sent before. The route documents the status under `responses`. `headers` go out with it (CORS on a
 * post from an allowed origin).
 */
export class Answer<T> {
  constructor(
    readonly status: number,
    readonly body: T,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** An answer without a body: a redirect (303 with Location), a CORS preflight (204). */
export class EmptyAnswer {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}
