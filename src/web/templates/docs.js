// Starts Swagger UI (swagger-ui-dist, served by /docs/swagger-ui-bundle.js) on the OpenAPI document
// named by the page. An external script, so the page's CSP needs no inline code; no validator badge
// (it would call validator.swagger.io).
const root = document.getElementById('api-reference');
window.SwaggerUIBundle({ url: root.dataset.url, domNode: root, deepLinking: true, validatorUrl: null, defaultModelsExpandDepth: 0 });
