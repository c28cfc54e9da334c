/**
 * A handler's answer with a status other than its route's: POST /v1/inquiries answers 200, not 201, when the
 * inquiry was sent before. The route documents the status under `responses`.
 */
export class Answer<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}
