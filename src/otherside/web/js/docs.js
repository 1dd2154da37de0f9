// The API's documentation: Swagger UI (loaded by docs.html from this server) on /openapi.json.
window.SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  presets: [window.SwaggerUIBundle.presets.apis],
});
