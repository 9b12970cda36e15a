// The API reference page: Swagger UI (served from its installed package) over this server's own OpenAPI documents,
// the Studio API's by default and the management API's with `?api=management`. No validator badge: it would call
// a host other than this one.
(() => {
  const api = new URLSearchParams(location.search).get('api');
  const url = api === 'management' ? '/v1/management/openapi.json' : '/v1/openapi.json';
  globalThis.cairnReference = globalThis.SwaggerUIBundle({
    url,
    dom_id: '#reference',
    deepLinking: true,
    validatorUrl: null,
    presets: [globalThis.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
})();
