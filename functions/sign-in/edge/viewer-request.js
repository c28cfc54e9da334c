// A CloudFront Function (JavaScript runtime 2.0) on the viewer requests of every API path. The local server runs this
// same file (infra/local/edge.ts).
// - The viewer's own address goes on as X-Viewer-Address, replacing any the client sent: behind the distribution, API
//   Gateway sees CloudFront's address, and every per-source limit counts this one instead
//   (shared/http/caller-address.ts), on a stage that says the distribution is its one way in.
// - On /v1/, a browser's request that carries the console's session cookie and no Authorization header goes on with
//   the cookie's token as its bearer token, so the API's one authorizer maps a session as it maps a key
//   (functions/sign-in/authorize-session.ts). A request with its own Authorization (an integration's key) is left as
//   it is.
function handler(event) {
  var request = event.request;
  request.headers['x-viewer-address'] = { value: event.viewer.ip };
  var cookie = request.cookies['__Host-session'];
  if (request.uri.indexOf('/v1/') === 0 && !request.headers.authorization && cookie && /^sps_[A-Za-z0-9_-]{16,200}$/.test(cookie.value)) {
    request.headers.authorization = { value: 'Bearer ' + cookie.value };
  }
  return request;
}
