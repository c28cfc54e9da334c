// A CloudFront Function (JavaScript runtime 2.0) on the viewer requests of the API's paths: a browser's request that
// carries the console's session cookie and no Authorization header goes on with the cookie's token as its bearer
// token, so the API's one authorizer maps a session as it maps a key (functions/console/authorize-session.ts). A request
// with its own Authorization (an integration's key) is left as it is. The local server runs this same file.
function handler(event) {
  var request = event.request;
  var cookie = request.cookies['__Host-session'];
  if (!request.headers.authorization && cookie && /^sps_[A-Za-z0-9_-]{16,200}$/.test(cookie.value)) {
    request.headers.authorization = { value: 'Bearer ' + cookie.value };
  }
  return request;
}
