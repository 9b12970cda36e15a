// The GraphQL playground: GraphiQL (React and GraphiQL served from their installed packages) against this server's
// POST /graphql. The key and session token typed above the editor go with every request as X-API-Key and
// X-Session-Token; GraphiQL's own headers tab can add more. `?query=` opens with that query in the editor.
(() => {
  const params = new URLSearchParams(location.search);
  const keyInput = document.getElementById('api-key');
  const tokenInput = document.getElementById('session-token');

  function fetcher(body, options) {
    const headers = {};
    if (keyInput.value.trim()) headers['X-API-Key'] = keyInput.value.trim();
    if (tokenInput.value.trim()) headers['X-Session-Token'] = tokenInput.value.trim();
    return globalThis.GraphiQL.createFetcher({ url: '/graphql', headers })(body, options);
  }

  globalThis.ReactDOM.createRoot(document.getElementById('graphiql')).render(
    globalThis.React.createElement(globalThis.GraphiQL, {
      fetcher,
      defaultQuery: '# Set X-API-Key (a publishable key with the data scope) above, then run a query.\n{ __typename }\n',
      query: params.get('query') ?? undefined,
    }),
  );
  // GraphiQL reads the schema once: a new key or token asks it again, through its own re-fetch button. That button is
  // disabled while a fetch is out (typing the key then the token starts one on each change), and a click on it then
  // does nothing: the change waits for the button and asks again, so the schema is read with what was typed last.
  const refetchButton = () => document.querySelector('.graphiql-sidebar button[aria-label="Re-fetch GraphQL schema"]');
  let refetchWaiting = false;
  const refetchSchema = () => {
    const button = refetchButton();
    if (!button) return;
    refetchWaiting = button.disabled;
    if (!refetchWaiting) button.click();
  };
  new MutationObserver(() => {
    if (refetchWaiting && refetchButton()?.disabled === false) refetchSchema();
  }).observe(document.getElementById('graphiql'), { subtree: true, attributes: true, attributeFilter: ['disabled'] });
  keyInput.addEventListener('change', refetchSchema);
  tokenInput.addEventListener('change', refetchSchema);
})();
