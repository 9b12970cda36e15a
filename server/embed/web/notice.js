// The embed page's notice: what the map could not do, said on the page with the status and the server's own
// sentence (its error envelope says what to do).

/**
 * The first message of an error envelope (a Blob or a Response body); empty when there is none.
 * @param {{ text(): Promise<string> } | null | undefined} body
 * @returns {Promise<string>}
 */
export function reasonOf(body) {
  if (!body || typeof body.text !== 'function') return Promise.resolve('');
  return body.text().then((text) => {
    try {
      return JSON.parse(text).errors[0].message || '';
    } catch {
      return '';
    }
  });
}

/**
 * Shows on `element` that the map could not do `what` (status 0: no answer); returns the sentence.
 * @param {HTMLElement} element
 * @param {string} what
 * @param {number} status
 * @param {string} reason
 */
export function tell(element, what, status, reason) {
  element.textContent = status
    ? `The map could not ${what} (${status}). ${reason}`.trim()
    : `The map could not ${what}: the server could not be reached.`;
  element.hidden = false;
  return element.textContent;
}
