// Localized sentences for every error code and the few specific message keys the server emits.
// Messages are for people, never a contract: clients branch on `extensions.code`.

import type { ErrorCode } from '../errors.js';
import { DATA_API_MESSAGES } from './data-api-messages.js';
import { IMPORT_WARNING_MESSAGES } from './import-warning-messages.js';
import { MCP_MESSAGES } from './mcp-messages.js';

export const LANGUAGES = ['en', 'fr', 'es', 'ca', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

type Table = Record<ErrorCode, string> & Record<string, string>;

const en: Table = {
  BAD_REQUEST: 'The request is malformed.',
  VALIDATION_FAILED: 'This value is not valid.',
  UNAUTHORIZED: 'A valid credential is required.',
  PAYMENT_REQUIRED: 'Your organization does not hold the product needed for this request.',
  CARD_REQUIRED: 'A payment method must be on file for this request.',
  FORBIDDEN: 'This credential is not permitted to do this.',
  NOT_FOUND: 'Nothing was found here.',
  METHOD_NOT_ALLOWED: 'This method is not allowed on this path.',
  CONFLICT: 'This change conflicts with an existing resource.',
  PAYLOAD_TOO_LARGE: 'The request body is too large (limit: {limit} bytes).',
  TOO_MANY_REQUESTS: 'Too many requests; the per-minute limit is spent.',
  INTERNAL_ERROR: 'Something went wrong on our side.',
  NOT_IMPLEMENTED: 'This operation is not available yet.',
  BAD_GATEWAY: 'An upstream service answered unusably.',
  SERVICE_UNAVAILABLE: 'The service is temporarily unavailable.',
  GATEWAY_TIMEOUT: 'The request took too long.',
  'BAD_REQUEST.invalid_json': 'The request body is not valid JSON.',
  'BAD_REQUEST.content_type': 'The request body must be sent as {expected}.',
  'BAD_REQUEST.invalid_parameter': 'A parameter could not be interpreted.',
  'VALIDATION_FAILED.required': 'This field is required here.',
  'VALIDATION_FAILED.unroutable':
    'No route on the trail network connects these points for this activity: move a point, choose another activity, or draw this part freehand.',
  'VALIDATION_FAILED.position': 'A position must be [longitude, latitude] or [longitude, latitude, elevation].',
  'VALIDATION_FAILED.longitude': 'Longitude must be between -180 and 180.',
  'VALIDATION_FAILED.latitude': 'Latitude must be between -90 and 90.',
  'VALIDATION_FAILED.too_few_positions': 'Too few positions for this geometry.',
  'VALIDATION_FAILED.ring_not_closed': 'A polygon ring must end where it starts.',
  'VALIDATION_FAILED.geometry_type': 'This geometry type does not fit the zone mode.',
  'VALIDATION_FAILED.not_applicable': 'This field does not apply to this mode.',
  'BAD_REQUEST.websocket_required':
    'This address is a WebSocket: open it with a WebSocket client (new WebSocket(url)), not a plain HTTP request.',
  'NOT_IMPLEMENTED.websocket_compat':
    'The live channel needs the default front end; this server runs with HTTP_COMPAT, which has no WebSockets.',
  'BAD_REQUEST.user_id': 'Writes with a publishable key need the X-User-Id header: the id (uuid) of the member making the change.',
  'VALIDATION_FAILED.name_text': 'Use a name of 1 to 200 characters on one line, not blank and without control characters.',
  'VALIDATION_FAILED.line_text': 'Use one line of text without control characters.',
  'VALIDATION_FAILED.multiline_text': 'Use plain text: line breaks and tabs are fine, other control characters are not.',
  'VALIDATION_FAILED.color': 'Use a colour written #RRGGBB (or #RGB, #RRGGBBAA), for example #1A7F37.',
  'VALIDATION_FAILED.pattern': 'This value does not have the expected form.',
  'VALIDATION_FAILED.more': '{count} more values failed validation, starting here; fix the ones listed and send the request again.',
  'VALIDATION_FAILED.integer_between': 'Use a whole number from {min} to {max}, written in plain digits.',
  'VALIDATION_FAILED.integer_from': 'Use a whole number of at least {min}, written in plain digits.',
  'VALIDATION_FAILED.integer': 'Use a whole number written in plain digits.',
  'VALIDATION_FAILED.number_between': 'Use a number from {min} to {max}.',
  'VALIDATION_FAILED.number_from': 'Use a number of at least {min}.',
  'VALIDATION_FAILED.number': 'Use a finite number.',
  'VALIDATION_FAILED.body_required': 'This operation needs a JSON object as its request body.',
  'VALIDATION_FAILED.type_string': 'Use a string (text in double quotes) here.',
  'VALIDATION_FAILED.type_object': 'Use a JSON object ({…}) here.',
  'VALIDATION_FAILED.type_array': 'Use a JSON list ([…]) here.',
  'VALIDATION_FAILED.type_boolean': 'Use true or false here.',
  'VALIDATION_FAILED.type_null': 'Use null here.',
  'VALIDATION_FAILED.enum': 'Use one of: {values}.',
  'VALIDATION_FAILED.const': 'The only accepted value here is {value}.',
  'VALIDATION_FAILED.format_uuid': 'Use a uuid, for example 123e4567-e89b-42d3-a456-426614174000.',
  'VALIDATION_FAILED.embed_target': 'Name what to show: collection_id, itinerary_id (or route_id), or both.',
  'VALIDATION_FAILED.embed_route_id': 'route_id is another name for itinerary_id: give one of them, or the same id in both.',
  'VALIDATION_FAILED.format_date_time': 'Use an ISO 8601 date and time, for example 2026-01-02T03:04:05Z.',
  'VALIDATION_FAILED.format_date': 'Use an ISO 8601 date, for example 2026-01-02.',
  'VALIDATION_FAILED.format_email': 'Use an email address, for example name@example.com.',
  'VALIDATION_FAILED.format_uri': 'Use an absolute URL, for example https://example.com/path.',
  'VALIDATION_FAILED.minimum': 'Use a number of at least {limit}.',
  'VALIDATION_FAILED.maximum': 'Use a number of at most {limit}.',
  'VALIDATION_FAILED.exclusiveMinimum': 'Use a number greater than {limit}.',
  'VALIDATION_FAILED.exclusiveMaximum': 'Use a number less than {limit}.',
  'VALIDATION_FAILED.minLength': 'Use at least {limit} characters.',
  'VALIDATION_FAILED.minLength_one': 'Give a value here: it may not be empty.',
  'VALIDATION_FAILED.minItems_one': 'Give at least one item.',
  'VALIDATION_FAILED.maxLength': 'Use at most {limit} characters.',
  'VALIDATION_FAILED.minItems': 'Give at least {limit} items.',
  'VALIDATION_FAILED.maxItems': 'Give at most {limit} items; split larger data into several requests.',
  'VALIDATION_FAILED.organization_required': 'You belong to several organizations: name one with organization_id.',
  'VALIDATION_FAILED.unknown_field': 'The field "{name}" is not accepted here; remove it (check its spelling).',
  'VALIDATION_FAILED.any_of': 'This value has none of the accepted forms: {forms}.',
  'VALIDATION_FAILED.unique_items': 'Give each item only once.',
  'UNAUTHORIZED.missing_key':
    'Send a publishable key (pk_…) in the X-API-Key header, or publishable_key in the URL for browser navigations.',
  'UNAUTHORIZED.session_without_key':
    'This request carries a session token but no publishable key: send the key the token was minted for in X-API-Key.',
  'UNAUTHORIZED.unknown_key': 'This publishable key is unknown or revoked; use a current pk_ key from your organization.',
  'UNAUTHORIZED.session_expired':
    'The session token has expired (they live 5 minutes): mint a new one with POST /v1/sessions and retry once.',
  'UNAUTHORIZED.session_invalid':
    'The session token is not one we issued (it is truncated or altered): send the token exactly as POST /v1/sessions returned it.',
  'UNAUTHORIZED.session_other_key': 'This session token was minted for another publishable key: send it with the key it was minted for.',
  'UNAUTHORIZED.session_revoked':
    'The secret key that minted this session token has been revoked: mint a new token with a current secret key.',
  'UNAUTHORIZED.mcp_key_pair':
    'The MCP server needs your publishable key in X-API-Key and a secret key of the same organization in X-Secret-Key.',
  'UNAUTHORIZED.mcp_token_expired':
    'The MCP access token has expired (they live an hour): refresh it at POST /oauth/token with your refresh token.',
  'UNAUTHORIZED.mcp_token_invalid':
    'This MCP access token is not one we issued: send the token exactly as POST /oauth/token returned it, or connect again.',
  'UNAUTHORIZED.mcp_token_revoked':
    'The publishable key or membership this MCP access token was granted through is gone (the key was revoked or the member left): connect again and choose a current key.',
  'UNAUTHORIZED.mcp_grant_revoked':
    'This MCP access token belongs to an authorization that was revoked (its code or refresh token was presented twice): connect again.',
  'UNAUTHORIZED.session_required':
    'This surface needs a session token: mint one with POST /v1/sessions and send it in X-Session-Token beside its publishable key.',
  'UNAUTHORIZED.embed_invalid': 'This embed credential is not valid: reload the embed page to get a new one.',
  'UNAUTHORIZED.embed_expired': 'This embed credential has expired: reload the embed page to get a new one.',
  'UNAUTHORIZED.embed_other_key':
    'This embed credential was made for another publishable key: send it with the key of the page it came with.',
  'UNAUTHORIZED.user_expired': 'Your sign-in has expired: sign in again with POST /v1/login.',
  'UNAUTHORIZED.user_invalid': 'This user token is not valid: send the token exactly as POST /v1/login returned it, or sign in again.',
  'FORBIDDEN.inactive_organization': 'This organization is inactive, so its keys are refused; its owner must reactivate it.',
  'NOT_FOUND.session_publishable_as_secret':
    'POST /v1/sessions is authorized by a secret key: send your sk_… key in X-API-Key, and the publishable key in the body as publishable_key.',
  'NOT_FOUND.session_secret_key':
    'No live secret key matches X-API-Key: send an sk_… key exactly as it was shown at creation, one that has not been revoked.',
  'NOT_FOUND.session_publishable_key':
    'No live publishable key matches publishable_key in the body: send a pk_… key of your organization that has not been revoked.',
  'FORBIDDEN.session_other_organization':
    'The secret key and the publishable key belong to different organizations: mint with a secret key of the publishable key’s organization.',
  'FORBIDDEN.signed_in_only':
    'Only a signed-in member can do this: send Authorization: Bearer usr_… (from POST /v1/login) instead of a key or a share link.',
  'FORBIDDEN.origin': "This key may not be used from this origin: add the origin to the key's allowed origins.",
  'FORBIDDEN.agent_not_configured':
    'This organization has no AI model configured: an owner or admin sets it with PATCH /v1/management/ai (endpoint, model, and api_key if the endpoint needs one).',
  'BAD_GATEWAY.model_answer':
    'The organization’s AI model answered something that is not a chat completion: check the endpoint and model in the AI settings.',
  'BAD_GATEWAY.model_refused': 'The organization’s AI model refused the request (401 or 403): check the API key in the AI settings.',
  'SERVICE_UNAVAILABLE.model':
    'The organization’s AI model could not be reached: check the endpoint in the AI settings, or try again later.',
  'GATEWAY_TIMEOUT.model': 'The organization’s AI model did not answer within 60 seconds: try again, or use a faster model.',
  'TOO_MANY_REQUESTS.agent': 'You already have two assistant answers running: wait for one to finish.',
  'TOO_MANY_REQUESTS.sign_in_address': 'Too many failed sign-ins from this address: wait until the next minute and try again.',
  'TOO_MANY_REQUESTS.sign_in_account': 'Too many failed sign-ins for this account: wait until the next minute and try again.',
  'FORBIDDEN.embed_planner':
    'This organization does not let its members open the planner inside its embeds: an owner or admin turns on embed_planner in the management settings.',
  'FORBIDDEN.scope': 'This key lacks the "{scope}" scope this operation needs: add the scope to the key, or use a key that has it.',
  'FORBIDDEN.not_member':
    'X-User-Id does not name a member of this organization: send the id of a member with role owner, admin or contributor.',
  'FORBIDDEN.viewer': 'This member has the viewer role and cannot make changes: act as an owner, admin or contributor.',
  'FORBIDDEN.share_write': 'A share link is read-only: it can read what it covers but never change anything.',
  'FORBIDDEN.share_surface': 'A share link does not reach this operation; use a publishable key or sign in.',
  'FORBIDDEN.limit_not_granted': 'Your plan does not include {dimension}: ask for it to be added to your organization.',
  'FORBIDDEN.limit_reached': 'Your plan allows {limit} {dimension}, all in use: delete one or raise the limit first.',
  'FORBIDDEN.manager_role': 'Only an owner or an admin can manage the organization.',
  'FORBIDDEN.owner_role': 'Only an owner can grant, change or remove the owner role.',
  'CONFLICT.itinerary_name': 'An itinerary with this name already exists here (see extensions.metadata.itinerary.id): choose another name.',
  'CONFLICT.collection_name':
    'A collection with this name already exists here (see extensions.metadata.collection.id): choose another name.',
  'CONFLICT.lock_held':
    'Another member is editing this part (extensions.metadata.holder.id): wait until their lock expires (2 minutes without edits) and try again.',
  'CONFLICT.lock_missing': 'Take the lock on this part first (POST /v1/itineraries/{itinerary_id}/locks), then send this change again.',
  'CONFLICT.last_owner': 'The organization must keep at least one owner: make another member owner first.',
  'CONFLICT.already_member': 'This user is already a member: change their role instead.',
  'VALIDATION_FAILED.off_network':
    'This point is not near any trail this activity may use: move it onto the network, or draw this part freehand.',
  'VALIDATION_FAILED.other_region':
    'This point is in the region {there} and the points before it in {here}; these regions share no trail network, so no route joins them: keep every point in one region.',
  'VALIDATION_FAILED.start_off_network':
    'This start point is not near any trail this activity may use: move it onto the network, or draw this part freehand.',
  'VALIDATION_FAILED.chain_end_off_network':
    "The itinerary's current end is not near any trail this activity may use: continue with a freehand segment.",
  'BAD_REQUEST.content_length':
    'The Content-Length header must appear once, as a whole number of bytes; send it once, or send the body with Transfer-Encoding: chunked instead.',
  'BAD_REQUEST.transfer_encoding':
    'Send the body either with Content-Length or with Transfer-Encoding: chunked, not both; chunked must be the last transfer coding.',
  'BAD_REQUEST.host': 'HTTP/1.1 requests need a Host header.',
  'BAD_REQUEST.malformed':
    'The request could not be read as HTTP/1.1: lines must end with CRLF and header names and values must be plain text.',
  'BAD_REQUEST.uri_too_long':
    'The URL is too long (the request line and headers may take at most {limit} bytes); shorten the query string.',
  'BAD_REQUEST.headers_too_large':
    'The request headers are too large: at most {limit} bytes and {fields} header fields; remove unneeded headers or cookies.',
  'BAD_REQUEST.http_version': 'Only HTTP/1.1 and HTTP/1.0 are served; send the request again over one of them.',
  'BAD_REQUEST.content_encoding':
    'Request bodies may be sent uncompressed or with Content-Encoding {accepted}; send the body in one of these encodings.',
  'BAD_REQUEST.compressed_body':
    'The request body could not be decompressed as its Content-Encoding says; check that the body is compressed with the declared encoding.',
  'BAD_REQUEST.invalid_utf8': 'The request body is not valid UTF-8: send the JSON encoded as UTF-8.',
  'BAD_REQUEST.json_too_deep': 'The JSON body nests objects or arrays more than {max} levels deep: send a flatter document.',
  'VALIDATION_FAILED.not_neighbours':
    'These segments must be a run of neighbours with no gap between them (only the ends of the route may be left out).',
  'VALIDATION_FAILED.unknown_segment': 'This segment is not part of the itinerary: use the id of one of its segments.',
  'VALIDATION_FAILED.waypoints_mismatch': 'The kept waypoints must be exactly the ends of the kept segments.',
  'VALIDATION_FAILED.one_position': "A freehand segment needs at least one position beyond the itinerary's current end.",
  'VALIDATION_FAILED.merge_neighbour': 'Merge only with the segment just before or just after, drawn with the same engine.',
  'VALIDATION_FAILED.split_at_end': 'Split at a point inside the segment, not at one of its ends.',
};

const fr: Table = {
  BAD_REQUEST: 'La requête est mal formée.',
  VALIDATION_FAILED: "Cette valeur n'est pas valide.",
  UNAUTHORIZED: 'Un identifiant valide est requis.',
  PAYMENT_REQUIRED: 'Votre organisation ne détient pas le produit requis pour cette requête.',
  CARD_REQUIRED: 'Un moyen de paiement doit être enregistré pour cette requête.',
  FORBIDDEN: "Cet identifiant n'est pas autorisé à faire cela.",
  NOT_FOUND: "Rien n'a été trouvé ici.",
  METHOD_NOT_ALLOWED: "Cette méthode n'est pas autorisée sur ce chemin.",
  CONFLICT: 'Cette modification entre en conflit avec une ressource existante.',
  PAYLOAD_TOO_LARGE: 'Le corps de la requête est trop volumineux (limite : {limit} octets).',
  TOO_MANY_REQUESTS: 'Trop de requêtes ; la limite par minute est atteinte.',
  INTERNAL_ERROR: 'Une erreur est survenue de notre côté.',
  NOT_IMPLEMENTED: "Cette opération n'est pas encore disponible.",
  BAD_GATEWAY: 'Un service en amont a répondu de façon inutilisable.',
  SERVICE_UNAVAILABLE: 'Le service est temporairement indisponible.',
  GATEWAY_TIMEOUT: 'La requête a pris trop de temps.',
  'BAD_REQUEST.invalid_json': "Le corps de la requête n'est pas un JSON valide.",
  'BAD_REQUEST.content_type': 'Le corps de la requête doit être envoyé en {expected}.',
  'BAD_REQUEST.invalid_parameter': "Un paramètre n'a pas pu être interprété.",
  'VALIDATION_FAILED.required': 'Ce champ est requis ici.',
  'VALIDATION_FAILED.unroutable':
    "Aucun itinéraire du réseau de sentiers ne relie ces points pour cette activité : déplacez un point, changez d'activité ou dessinez cette partie à main levée.",
  'VALIDATION_FAILED.position': 'Une position doit être [longitude, latitude] ou [longitude, latitude, altitude].',
  'VALIDATION_FAILED.longitude': 'La longitude doit être comprise entre -180 et 180.',
  'VALIDATION_FAILED.latitude': 'La latitude doit être comprise entre -90 et 90.',
  'VALIDATION_FAILED.too_few_positions': 'Trop peu de positions pour cette géométrie.',
  'VALIDATION_FAILED.ring_not_closed': 'Un anneau de polygone doit se terminer là où il commence.',
  'VALIDATION_FAILED.geometry_type': 'Ce type de géométrie ne convient pas au mode de la zone.',
  'VALIDATION_FAILED.not_applicable': "Ce champ ne s'applique pas à ce mode.",
  'BAD_REQUEST.websocket_required':
    'Cette adresse est un WebSocket : ouvrez-la avec un client WebSocket (new WebSocket(url)), pas une requête HTTP simple.',
  'NOT_IMPLEMENTED.websocket_compat':
    'Le canal en direct demande le serveur frontal par défaut ; ce serveur tourne avec HTTP_COMPAT, sans WebSockets.',
  'BAD_REQUEST.user_id':
    "Les écritures avec une clé publiable exigent l'en-tête X-User-Id : l'identifiant (uuid) du membre qui fait la modification.",
  'VALIDATION_FAILED.name_text': 'Utilisez un nom de 1 à 200 caractères sur une ligne, non vide et sans caractères de contrôle.',
  'VALIDATION_FAILED.line_text': 'Utilisez une ligne de texte sans caractères de contrôle.',
  'VALIDATION_FAILED.multiline_text':
    'Utilisez du texte simple : retours à la ligne et tabulations sont acceptés, les autres caractères de contrôle non.',
  'VALIDATION_FAILED.color': 'Utilisez une couleur écrite #RRVVBB (ou #RVB, #RRVVBBAA), par exemple #1A7F37.',
  'VALIDATION_FAILED.pattern': "Cette valeur n'a pas la forme attendue.",
  'VALIDATION_FAILED.more': "{count} autres valeurs sont invalides, à partir d'ici ; corrigez celles listées et renvoyez la requête.",
  'VALIDATION_FAILED.integer_between': 'Utilisez un nombre entier de {min} à {max}, écrit en chiffres simples.',
  'VALIDATION_FAILED.integer_from': "Utilisez un nombre entier d'au moins {min}, écrit en chiffres simples.",
  'VALIDATION_FAILED.integer': 'Utilisez un nombre entier écrit en chiffres simples.',
  'VALIDATION_FAILED.number_between': 'Utilisez un nombre de {min} à {max}.',
  'VALIDATION_FAILED.number_from': "Utilisez un nombre d'au moins {min}.",
  'VALIDATION_FAILED.number': 'Utilisez un nombre fini.',
  'VALIDATION_FAILED.body_required': 'Cette opération demande un objet JSON comme corps de requête.',
  'VALIDATION_FAILED.type_string': 'Utilisez ici une chaîne (du texte entre guillemets doubles).',
  'VALIDATION_FAILED.type_object': 'Utilisez ici un objet JSON ({…}).',
  'VALIDATION_FAILED.type_array': 'Utilisez ici une liste JSON ([…]).',
  'VALIDATION_FAILED.type_boolean': 'Utilisez ici true ou false.',
  'VALIDATION_FAILED.type_null': 'Utilisez ici null.',
  'VALIDATION_FAILED.enum': "Utilisez l'une de ces valeurs : {values}.",
  'VALIDATION_FAILED.const': 'La seule valeur acceptée ici est {value}.',
  'VALIDATION_FAILED.format_uuid': 'Utilisez un uuid, par exemple 123e4567-e89b-42d3-a456-426614174000.',
  'VALIDATION_FAILED.embed_target': 'Indiquez ce qu’il faut afficher : collection_id, itinerary_id (ou route_id), ou les deux.',
  'VALIDATION_FAILED.embed_route_id':
    'route_id est un autre nom d’itinerary_id : donnez l’un des deux, ou le même identifiant dans les deux.',
  'VALIDATION_FAILED.format_date_time': 'Utilisez une date et heure ISO 8601, par exemple 2026-01-02T03:04:05Z.',
  'VALIDATION_FAILED.format_date': 'Utilisez une date ISO 8601, par exemple 2026-01-02.',
  'VALIDATION_FAILED.format_email': 'Utilisez une adresse e-mail, par exemple nom@example.com.',
  'VALIDATION_FAILED.format_uri': 'Utilisez une URL absolue, par exemple https://example.com/chemin.',
  'VALIDATION_FAILED.minimum': "Utilisez un nombre d'au moins {limit}.",
  'VALIDATION_FAILED.maximum': 'Utilisez un nombre de {limit} au plus.',
  'VALIDATION_FAILED.exclusiveMinimum': 'Utilisez un nombre supérieur à {limit}.',
  'VALIDATION_FAILED.exclusiveMaximum': 'Utilisez un nombre inférieur à {limit}.',
  'VALIDATION_FAILED.minLength': 'Utilisez au moins {limit} caractères.',
  'VALIDATION_FAILED.minLength_one': 'Donnez une valeur ici : elle ne peut pas être vide.',
  'VALIDATION_FAILED.minItems_one': 'Donnez au moins un élément.',
  'VALIDATION_FAILED.maxLength': 'Utilisez au plus {limit} caractères.',
  'VALIDATION_FAILED.minItems': 'Donnez au moins {limit} éléments.',
  'VALIDATION_FAILED.maxItems': 'Donnez au plus {limit} éléments ; répartissez les données plus grandes sur plusieurs requêtes.',
  'VALIDATION_FAILED.organization_required': 'Vous appartenez à plusieurs organisations : indiquez-en une avec organization_id.',
  'VALIDATION_FAILED.unknown_field': "Le champ « {name} » n'est pas accepté ici ; retirez-le (vérifiez son orthographe).",
  'VALIDATION_FAILED.any_of': "Cette valeur n'a aucune des formes acceptées : {forms}.",
  'VALIDATION_FAILED.unique_items': 'Donnez chaque élément une seule fois.',
  'UNAUTHORIZED.missing_key':
    "Envoyez une clé publiable (pk_…) dans l'en-tête X-API-Key, ou publishable_key dans l'URL pour une navigation.",
  'UNAUTHORIZED.session_without_key':
    'Cette requête porte un jeton de session mais aucune clé publiable : envoyez dans X-API-Key la clé pour laquelle le jeton a été émis.',
  'UNAUTHORIZED.unknown_key': 'Cette clé publiable est inconnue ou révoquée ; utilisez une clé pk_ valide de votre organisation.',
  'UNAUTHORIZED.session_expired':
    'Le jeton de session a expiré (il vit 5 minutes) : émettez-en un nouveau avec POST /v1/sessions et réessayez une fois.',
  'UNAUTHORIZED.session_invalid':
    "Ce jeton de session n'a pas été émis par nous (tronqué ou modifié) : envoyez-le tel que POST /v1/sessions l'a renvoyé.",
  'UNAUTHORIZED.session_other_key': 'Ce jeton de session a été émis pour une autre clé publiable : envoyez-le avec sa clé.',
  'UNAUTHORIZED.session_revoked':
    'La clé secrète qui a émis ce jeton a été révoquée : émettez un nouveau jeton avec une clé secrète valide.',
  'UNAUTHORIZED.mcp_key_pair':
    'Le serveur MCP demande votre clé publiable dans X-API-Key et une clé secrète de la même organisation dans X-Secret-Key.',
  'UNAUTHORIZED.mcp_token_expired':
    "Le jeton d'accès MCP a expiré (il vit une heure) : renouvelez-le sur POST /oauth/token avec votre jeton de rafraîchissement.",
  'UNAUTHORIZED.mcp_token_invalid':
    "Ce jeton d'accès MCP n'a pas été émis par nous : envoyez-le tel que POST /oauth/token l'a renvoyé, ou reconnectez-vous.",
  'UNAUTHORIZED.mcp_token_revoked':
    "La clé publiable ou l'adhésion par laquelle ce jeton d'accès MCP a été accordé n'existe plus (clé révoquée ou membre parti) : reconnectez-vous et choisissez une clé valide.",
  'UNAUTHORIZED.mcp_grant_revoked':
    "Ce jeton d'accès MCP appartient à une autorisation révoquée (son code ou son jeton de rafraîchissement a été présenté deux fois) : reconnectez-vous.",
  'UNAUTHORIZED.session_required':
    'Cette surface exige un jeton de session : émettez-en un avec POST /v1/sessions et envoyez-le dans X-Session-Token avec sa clé publiable.',
  'UNAUTHORIZED.embed_invalid': 'Ce jeton d’intégration n’est pas valide : rechargez la page intégrée pour en obtenir un nouveau.',
  'UNAUTHORIZED.embed_expired': 'Ce jeton d’intégration a expiré : rechargez la page intégrée pour en obtenir un nouveau.',
  'UNAUTHORIZED.embed_other_key':
    'Ce jeton d’intégration a été émis pour une autre clé publiable : envoyez-le avec la clé de la page qui l’a reçu.',
  'UNAUTHORIZED.user_expired': 'Votre connexion a expiré : reconnectez-vous avec POST /v1/login.',
  'UNAUTHORIZED.user_invalid':
    "Ce jeton d'utilisateur n'est pas valide : envoyez-le tel que POST /v1/login l'a renvoyé, ou reconnectez-vous.",
  'FORBIDDEN.inactive_organization': 'Cette organisation est inactive, ses clés sont donc refusées ; son propriétaire doit la réactiver.',
  'NOT_FOUND.session_publishable_as_secret':
    'POST /v1/sessions est autorisé par une clé secrète : envoyez votre clé sk_… dans X-API-Key, et la clé publique dans le corps comme publishable_key.',
  'NOT_FOUND.session_secret_key':
    'Aucune clé secrète active ne correspond à X-API-Key : envoyez une clé sk_… telle qu’affichée à sa création, non révoquée.',
  'NOT_FOUND.session_publishable_key':
    'Aucune clé publique active ne correspond à publishable_key dans le corps : envoyez une clé pk_… de votre organisation, non révoquée.',
  'FORBIDDEN.session_other_organization':
    'La clé secrète et la clé publique appartiennent à des organisations différentes : utilisez une clé secrète de l’organisation de la clé publique.',
  'FORBIDDEN.signed_in_only':
    "Seul un membre connecté peut faire cela : envoyez Authorization: Bearer usr_… (de POST /v1/login) au lieu d'une clé ou d'un lien de partage.",
  'FORBIDDEN.origin': "Cette clé ne peut pas être utilisée depuis cette origine : ajoutez l'origine aux origines autorisées de la clé.",
  'FORBIDDEN.agent_not_configured':
    "Cette organisation n'a pas de modèle d'IA configuré : un propriétaire ou un administrateur le définit avec PATCH /v1/management/ai (endpoint, model, et api_key si le service en demande une).",
  'BAD_GATEWAY.model_answer':
    "Le modèle d'IA de l'organisation a répondu autre chose qu'une complétion de chat : vérifiez l'adresse et le modèle dans les réglages d'IA.",
  'BAD_GATEWAY.model_refused':
    "Le modèle d'IA de l'organisation a refusé la requête (401 ou 403) : vérifiez la clé d'API dans les réglages d'IA.",
  'SERVICE_UNAVAILABLE.model':
    "Le modèle d'IA de l'organisation est injoignable : vérifiez l'adresse dans les réglages d'IA, ou réessayez plus tard.",
  'GATEWAY_TIMEOUT.model':
    "Le modèle d'IA de l'organisation n'a pas répondu en 60 secondes : réessayez, ou choisissez un modèle plus rapide.",
  'TOO_MANY_REQUESTS.agent': "Vous avez déjà deux réponses de l'assistant en cours : attendez que l'une se termine.",
  'TOO_MANY_REQUESTS.sign_in_address': 'Trop de connexions échouées depuis cette adresse : attendez la minute suivante et réessayez.',
  'TOO_MANY_REQUESTS.sign_in_account': 'Trop de connexions échouées pour ce compte : attendez la minute suivante et réessayez.',
  'FORBIDDEN.embed_planner':
    "Cette organisation ne permet pas à ses membres d'ouvrir le planificateur dans ses intégrations : un propriétaire ou un administrateur active embed_planner dans les réglages de gestion.",
  'FORBIDDEN.scope': "Cette clé n'a pas le périmètre « {scope} » requis : ajoutez-le à la clé, ou utilisez une clé qui l'a.",
  'FORBIDDEN.not_member':
    "X-User-Id ne désigne pas un membre de cette organisation : envoyez l'id d'un membre propriétaire, admin ou contributeur.",
  'FORBIDDEN.viewer': 'Ce membre a le rôle lecteur et ne peut rien modifier : agissez en tant que propriétaire, admin ou contributeur.',
  'FORBIDDEN.share_write': 'Un lien de partage est en lecture seule : il lit ce qu’il couvre mais ne modifie jamais rien.',
  'FORBIDDEN.share_surface': 'Un lien de partage ne donne pas accès à cette opération ; utilisez une clé publiable ou connectez-vous.',
  'FORBIDDEN.limit_not_granted': "Votre offre n'inclut pas {dimension} : demandez qu'il soit ajouté à votre organisation.",
  'FORBIDDEN.limit_reached': 'Votre offre permet {limit} {dimension}, tous utilisés : supprimez-en un ou relevez la limite.',
  'FORBIDDEN.manager_role': "Seul un propriétaire ou un admin peut gérer l'organisation.",
  'FORBIDDEN.owner_role': 'Seul un propriétaire peut attribuer, changer ou retirer le rôle de propriétaire.',
  'CONFLICT.itinerary_name': 'Un itinéraire porte déjà ce nom ici (voir extensions.metadata.itinerary.id) : choisissez un autre nom.',
  'CONFLICT.collection_name': 'Une collection porte déjà ce nom ici (voir extensions.metadata.collection.id) : choisissez un autre nom.',
  'CONFLICT.lock_held':
    "Un autre membre modifie cette partie (extensions.metadata.holder.id) : attendez l'expiration de son verrou (2 minutes sans modification) puis réessayez.",
  'CONFLICT.lock_missing':
    'Prenez d’abord le verrou sur cette partie (POST /v1/itineraries/{itinerary_id}/locks), puis renvoyez la modification.',
  'CONFLICT.last_owner': "L'organisation doit garder au moins un propriétaire : nommez d'abord un autre membre propriétaire.",
  'CONFLICT.already_member': 'Cet utilisateur est déjà membre : changez plutôt son rôle.',
  'VALIDATION_FAILED.off_network':
    "Ce point n'est proche d'aucun sentier praticable pour cette activité : placez-le sur le réseau, ou dessinez cette partie à main levée.",
  'VALIDATION_FAILED.other_region':
    "Ce point se trouve dans la région {there} et les points précédents dans {here} ; ces régions n'ont aucun sentier en commun, aucun itinéraire ne les relie : gardez tous les points dans une même région.",
  'VALIDATION_FAILED.start_off_network':
    "Ce point de départ n'est proche d'aucun sentier praticable pour cette activité : placez-le sur le réseau, ou dessinez cette partie à main levée.",
  'VALIDATION_FAILED.chain_end_off_network':
    "La fin actuelle de l'itinéraire n'est proche d'aucun sentier praticable pour cette activité : continuez avec un segment à main levée.",
  'BAD_REQUEST.content_length':
    "L'en-tête Content-Length doit apparaître une seule fois, sous la forme d'un nombre entier d'octets ; envoyez-le une fois, ou envoyez le corps avec Transfer-Encoding: chunked.",
  'BAD_REQUEST.transfer_encoding':
    'Envoyez le corps soit avec Content-Length, soit avec Transfer-Encoding: chunked, pas les deux ; chunked doit être le dernier codage de transfert.',
  'BAD_REQUEST.host': 'Les requêtes HTTP/1.1 exigent un en-tête Host.',
  'BAD_REQUEST.malformed':
    "La requête n'a pas pu être lue en HTTP/1.1 : les lignes doivent se terminer par CRLF et les noms et valeurs d'en-têtes doivent être du texte simple.",
  'BAD_REQUEST.uri_too_long':
    "L'URL est trop longue (la ligne de requête et les en-têtes peuvent occuper au plus {limit} octets) ; raccourcissez la chaîne de requête.",
  'BAD_REQUEST.headers_too_large':
    'Les en-têtes de la requête sont trop volumineux : au plus {limit} octets et {fields} champs ; retirez les en-têtes ou cookies superflus.',
  'BAD_REQUEST.http_version': "Seuls HTTP/1.1 et HTTP/1.0 sont servis ; renvoyez la requête avec l'un des deux.",
  'BAD_REQUEST.content_encoding':
    "Le corps d'une requête peut être envoyé non compressé ou avec Content-Encoding {accepted} ; envoyez-le dans l'un de ces codages.",
  'BAD_REQUEST.compressed_body':
    "Le corps de la requête n'a pas pu être décompressé selon son Content-Encoding ; vérifiez qu'il est compressé avec le codage déclaré.",
  'BAD_REQUEST.invalid_utf8': "Le corps de la requête n'est pas de l'UTF-8 valide : envoyez le JSON encodé en UTF-8.",
  'BAD_REQUEST.json_too_deep':
    'Le corps JSON imbrique des objets ou des tableaux sur plus de {max} niveaux : envoyez un document moins profond.',
  'VALIDATION_FAILED.not_neighbours':
    'Ces segments doivent se suivre sans trou (seules les extrémités du parcours peuvent être laissées de côté).',
  'VALIDATION_FAILED.unknown_segment': "Ce segment ne fait pas partie de l'itinéraire : utilisez l'id de l'un de ses segments.",
  'VALIDATION_FAILED.waypoints_mismatch': 'Les points de passage gardés doivent être exactement les extrémités des segments gardés.',
  'VALIDATION_FAILED.one_position': "Un segment à main levée demande au moins une position au-delà de la fin actuelle de l'itinéraire.",
  'VALIDATION_FAILED.merge_neighbour': 'Fusionnez seulement avec le segment juste avant ou juste après, tracé avec le même moteur.',
  'VALIDATION_FAILED.split_at_end': "Coupez en un point à l'intérieur du segment, pas à l'une de ses extrémités.",
};

const es: Table = {
  BAD_REQUEST: 'La solicitud está mal formada.',
  VALIDATION_FAILED: 'Este valor no es válido.',
  UNAUTHORIZED: 'Se requiere una credencial válida.',
  PAYMENT_REQUIRED: 'Su organización no tiene el producto necesario para esta solicitud.',
  CARD_REQUIRED: 'Se necesita un método de pago registrado para esta solicitud.',
  FORBIDDEN: 'Esta credencial no tiene permiso para hacer esto.',
  NOT_FOUND: 'No se encontró nada aquí.',
  METHOD_NOT_ALLOWED: 'Este método no está permitido en esta ruta.',
  CONFLICT: 'Este cambio entra en conflicto con un recurso existente.',
  PAYLOAD_TOO_LARGE: 'El cuerpo de la solicitud es demasiado grande (límite: {limit} bytes).',
  TOO_MANY_REQUESTS: 'Demasiadas solicitudes; se agotó el límite por minuto.',
  INTERNAL_ERROR: 'Algo salió mal de nuestro lado.',
  NOT_IMPLEMENTED: 'Esta operación aún no está disponible.',
  BAD_GATEWAY: 'Un servicio externo respondió de forma inutilizable.',
  SERVICE_UNAVAILABLE: 'El servicio no está disponible temporalmente.',
  GATEWAY_TIMEOUT: 'La solicitud tardó demasiado.',
  'BAD_REQUEST.invalid_json': 'El cuerpo de la solicitud no es JSON válido.',
  'BAD_REQUEST.content_type': 'El cuerpo de la solicitud debe enviarse como {expected}.',
  'BAD_REQUEST.invalid_parameter': 'No se pudo interpretar un parámetro.',
  'VALIDATION_FAILED.required': 'Este campo es obligatorio aquí.',
  'VALIDATION_FAILED.unroutable':
    'Ninguna ruta de la red de senderos une estos puntos para esta actividad: mueva un punto, elija otra actividad o dibuje esta parte a mano alzada.',
  'VALIDATION_FAILED.position': 'Una posición debe ser [longitud, latitud] o [longitud, latitud, altitud].',
  'VALIDATION_FAILED.longitude': 'La longitud debe estar entre -180 y 180.',
  'VALIDATION_FAILED.latitude': 'La latitud debe estar entre -90 y 90.',
  'VALIDATION_FAILED.too_few_positions': 'Muy pocas posiciones para esta geometría.',
  'VALIDATION_FAILED.ring_not_closed': 'Un anillo de polígono debe terminar donde empieza.',
  'VALIDATION_FAILED.geometry_type': 'Este tipo de geometría no corresponde al modo de la zona.',
  'VALIDATION_FAILED.not_applicable': 'Este campo no se aplica a este modo.',
  'BAD_REQUEST.websocket_required':
    'Esta dirección es un WebSocket: ábrala con un cliente WebSocket (new WebSocket(url)), no con una petición HTTP simple.',
  'NOT_IMPLEMENTED.websocket_compat':
    'El canal en directo necesita el servidor frontal por defecto; este servidor funciona con HTTP_COMPAT, sin WebSockets.',
  'BAD_REQUEST.user_id':
    'Las escrituras con una clave publicable requieren la cabecera X-User-Id: el identificador (uuid) del miembro que hace el cambio.',
  'VALIDATION_FAILED.name_text': 'Use un nombre de 1 a 200 caracteres en una línea, no vacío y sin caracteres de control.',
  'VALIDATION_FAILED.line_text': 'Use una línea de texto sin caracteres de control.',
  'VALIDATION_FAILED.multiline_text': 'Use texto simple: se admiten saltos de línea y tabuladores, otros caracteres de control no.',
  'VALIDATION_FAILED.color': 'Use un color escrito #RRGGBB (o #RGB, #RRGGBBAA), por ejemplo #1A7F37.',
  'VALIDATION_FAILED.pattern': 'Este valor no tiene la forma esperada.',
  'VALIDATION_FAILED.more': 'Otros {count} valores no son válidos, a partir de aquí; corrija los listados y envíe de nuevo la solicitud.',
  'VALIDATION_FAILED.integer_between': 'Use un número entero de {min} a {max}, escrito con dígitos simples.',
  'VALIDATION_FAILED.integer_from': 'Use un número entero de al menos {min}, escrito con dígitos simples.',
  'VALIDATION_FAILED.integer': 'Use un número entero escrito con dígitos simples.',
  'VALIDATION_FAILED.number_between': 'Use un número de {min} a {max}.',
  'VALIDATION_FAILED.number_from': 'Use un número de al menos {min}.',
  'VALIDATION_FAILED.number': 'Use un número finito.',
  'VALIDATION_FAILED.body_required': 'Esta operación necesita un objeto JSON como cuerpo de la solicitud.',
  'VALIDATION_FAILED.type_string': 'Use aquí una cadena (texto entre comillas dobles).',
  'VALIDATION_FAILED.type_object': 'Use aquí un objeto JSON ({…}).',
  'VALIDATION_FAILED.type_array': 'Use aquí una lista JSON ([…]).',
  'VALIDATION_FAILED.type_boolean': 'Use aquí true o false.',
  'VALIDATION_FAILED.type_null': 'Use aquí null.',
  'VALIDATION_FAILED.enum': 'Use uno de estos valores: {values}.',
  'VALIDATION_FAILED.const': 'El único valor aceptado aquí es {value}.',
  'VALIDATION_FAILED.format_uuid': 'Use un uuid, por ejemplo 123e4567-e89b-42d3-a456-426614174000.',
  'VALIDATION_FAILED.embed_target': 'Indique qué mostrar: collection_id, itinerary_id (o route_id), o ambos.',
  'VALIDATION_FAILED.embed_route_id': 'route_id es otro nombre de itinerary_id: indique uno de los dos, o el mismo id en ambos.',
  'VALIDATION_FAILED.format_date_time': 'Use una fecha y hora ISO 8601, por ejemplo 2026-01-02T03:04:05Z.',
  'VALIDATION_FAILED.format_date': 'Use una fecha ISO 8601, por ejemplo 2026-01-02.',
  'VALIDATION_FAILED.format_email': 'Use una dirección de correo, por ejemplo nombre@example.com.',
  'VALIDATION_FAILED.format_uri': 'Use una URL absoluta, por ejemplo https://example.com/ruta.',
  'VALIDATION_FAILED.minimum': 'Use un número de al menos {limit}.',
  'VALIDATION_FAILED.maximum': 'Use un número de como máximo {limit}.',
  'VALIDATION_FAILED.exclusiveMinimum': 'Use un número mayor que {limit}.',
  'VALIDATION_FAILED.exclusiveMaximum': 'Use un número menor que {limit}.',
  'VALIDATION_FAILED.minLength': 'Use al menos {limit} caracteres.',
  'VALIDATION_FAILED.minLength_one': 'Indique un valor aquí: no puede estar vacío.',
  'VALIDATION_FAILED.minItems_one': 'Dé al menos un elemento.',
  'VALIDATION_FAILED.maxLength': 'Use como máximo {limit} caracteres.',
  'VALIDATION_FAILED.minItems': 'Dé al menos {limit} elementos.',
  'VALIDATION_FAILED.maxItems': 'Dé como máximo {limit} elementos; reparta los datos más grandes en varias solicitudes.',
  'VALIDATION_FAILED.organization_required': 'Pertenece a varias organizaciones: indique una con organization_id.',
  'VALIDATION_FAILED.unknown_field': 'El campo «{name}» no se acepta aquí; quítelo (revise cómo está escrito).',
  'VALIDATION_FAILED.any_of': 'Este valor no tiene ninguna de las formas aceptadas: {forms}.',
  'VALIDATION_FAILED.unique_items': 'Dé cada elemento una sola vez.',
  'UNAUTHORIZED.missing_key': 'Envíe una clave publicable (pk_…) en la cabecera X-API-Key, o publishable_key en la URL para navegaciones.',
  'UNAUTHORIZED.session_without_key':
    'Esta solicitud lleva un token de sesión pero ninguna clave publicable: envíe en X-API-Key la clave para la que se emitió el token.',
  'UNAUTHORIZED.unknown_key': 'Esta clave publicable es desconocida o está revocada; use una clave pk_ vigente de su organización.',
  'UNAUTHORIZED.session_expired':
    'El token de sesión ha caducado (dura 5 minutos): emita uno nuevo con POST /v1/sessions y reintente una vez.',
  'UNAUTHORIZED.session_invalid':
    'Este token de sesión no lo emitimos nosotros (está truncado o alterado): envíelo tal como lo devolvió POST /v1/sessions.',
  'UNAUTHORIZED.session_other_key':
    'Este token de sesión se emitió para otra clave publicable: envíelo con la clave para la que se emitió.',
  'UNAUTHORIZED.session_revoked':
    'La clave secreta que emitió este token fue revocada: emita un token nuevo con una clave secreta vigente.',
  'UNAUTHORIZED.mcp_key_pair':
    'El servidor MCP necesita su clave publicable en X-API-Key y una clave secreta de la misma organización en X-Secret-Key.',
  'UNAUTHORIZED.mcp_token_expired':
    'El token de acceso MCP ha caducado (dura una hora): renuévelo en POST /oauth/token con su token de actualización.',
  'UNAUTHORIZED.mcp_token_invalid':
    'Este token de acceso MCP no lo emitimos nosotros: envíelo tal como lo devolvió POST /oauth/token, o vuelva a conectar.',
  'UNAUTHORIZED.mcp_token_revoked':
    'La clave publicable o la membresía con la que se concedió este token de acceso MCP ya no existe (clave revocada o el miembro salió): vuelva a conectar y elija una clave vigente.',
  'UNAUTHORIZED.mcp_grant_revoked':
    'Este token de acceso MCP pertenece a una autorización revocada (su código o su token de actualización se presentó dos veces): vuelva a conectar.',
  'UNAUTHORIZED.session_required':
    'Esta superficie necesita un token de sesión: emita uno con POST /v1/sessions y envíelo en X-Session-Token junto a su clave publicable.',
  'UNAUTHORIZED.embed_invalid': 'Esta credencial de inserción no es válida: recargue la página insertada para obtener una nueva.',
  'UNAUTHORIZED.embed_expired': 'Esta credencial de inserción ha caducado: recargue la página insertada para obtener una nueva.',
  'UNAUTHORIZED.embed_other_key':
    'Esta credencial de inserción se emitió para otra clave publicable: envíela con la clave de la página que la recibió.',
  'UNAUTHORIZED.user_expired': 'Su sesión de usuario ha caducado: vuelva a iniciar sesión con POST /v1/login.',
  'UNAUTHORIZED.user_invalid': 'Este token de usuario no es válido: envíelo tal como lo devolvió POST /v1/login, o inicie sesión de nuevo.',
  'FORBIDDEN.inactive_organization': 'Esta organización está inactiva, por lo que sus claves se rechazan; su propietario debe reactivarla.',
  'NOT_FOUND.session_publishable_as_secret':
    'POST /v1/sessions se autoriza con una clave secreta: envíe su clave sk_… en X-API-Key, y la clave publicable en el cuerpo como publishable_key.',
  'NOT_FOUND.session_secret_key':
    'Ninguna clave secreta activa coincide con X-API-Key: envíe una clave sk_… tal como se mostró al crearla y que no esté revocada.',
  'NOT_FOUND.session_publishable_key':
    'Ninguna clave publicable activa coincide con publishable_key en el cuerpo: envíe una clave pk_… de su organización que no esté revocada.',
  'FORBIDDEN.session_other_organization':
    'La clave secreta y la clave publicable pertenecen a organizaciones distintas: use una clave secreta de la organización de la clave publicable.',
  'FORBIDDEN.signed_in_only':
    'Solo un miembro con sesión iniciada puede hacer esto: envíe Authorization: Bearer usr_… (de POST /v1/login) en lugar de una clave o un enlace compartido.',
  'FORBIDDEN.origin': 'Esta clave no puede usarse desde este origen: añada el origen a los orígenes permitidos de la clave.',
  'FORBIDDEN.agent_not_configured':
    'Esta organización no tiene un modelo de IA configurado: un propietario o administrador lo define con PATCH /v1/management/ai (endpoint, model y api_key si el servicio la pide).',
  'BAD_GATEWAY.model_answer':
    'El modelo de IA de la organización respondió algo que no es una respuesta de chat: revise la dirección y el modelo en los ajustes de IA.',
  'BAD_GATEWAY.model_refused':
    'El modelo de IA de la organización rechazó la petición (401 o 403): revise la clave de API en los ajustes de IA.',
  'SERVICE_UNAVAILABLE.model':
    'No se pudo contactar con el modelo de IA de la organización: revise la dirección en los ajustes de IA o inténtelo más tarde.',
  'GATEWAY_TIMEOUT.model': 'El modelo de IA de la organización no respondió en 60 segundos: inténtelo de nuevo o use un modelo más rápido.',
  'TOO_MANY_REQUESTS.agent': 'Ya tiene dos respuestas del asistente en curso: espere a que termine una.',
  'TOO_MANY_REQUESTS.sign_in_address':
    'Demasiados inicios de sesión fallidos desde esta dirección: espere al minuto siguiente y vuelva a intentarlo.',
  'TOO_MANY_REQUESTS.sign_in_account':
    'Demasiados inicios de sesión fallidos para esta cuenta: espere al minuto siguiente y vuelva a intentarlo.',
  'FORBIDDEN.embed_planner':
    'Esta organización no permite a sus miembros abrir el planificador en sus integraciones: un propietario o administrador activa embed_planner en los ajustes de gestión.',
  'FORBIDDEN.scope':
    'A esta clave le falta el ámbito «{scope}» que necesita la operación: añádalo a la clave o use una clave que lo tenga.',
  'FORBIDDEN.not_member':
    'X-User-Id no designa a un miembro de esta organización: envíe el id de un miembro propietario, administrador o colaborador.',
  'FORBIDDEN.viewer': 'Este miembro tiene el rol de lector y no puede hacer cambios: actúe como propietario, administrador o colaborador.',
  'FORBIDDEN.share_write': 'Un enlace compartido es de solo lectura: lee lo que cubre pero nunca cambia nada.',
  'FORBIDDEN.share_surface': 'Un enlace compartido no llega a esta operación; use una clave publicable o inicie sesión.',
  'FORBIDDEN.limit_not_granted': 'Su plan no incluye {dimension}: pida que se añada a su organización.',
  'FORBIDDEN.limit_reached': 'Su plan permite {limit} {dimension}, todos en uso: elimine uno o aumente el límite.',
  'FORBIDDEN.manager_role': 'Solo un propietario o un administrador puede gestionar la organización.',
  'FORBIDDEN.owner_role': 'Solo un propietario puede conceder, cambiar o quitar el rol de propietario.',
  'CONFLICT.itinerary_name': 'Ya existe aquí un itinerario con este nombre (vea extensions.metadata.itinerary.id): elija otro nombre.',
  'CONFLICT.collection_name': 'Ya existe aquí una colección con este nombre (vea extensions.metadata.collection.id): elija otro nombre.',
  'CONFLICT.lock_held':
    'Otro miembro está editando esta parte (extensions.metadata.holder.id): espere a que caduque su bloqueo (2 minutos sin cambios) e inténtelo de nuevo.',
  'CONFLICT.lock_missing': 'Tome primero el bloqueo de esta parte (POST /v1/itineraries/{itinerary_id}/locks) y envíe de nuevo el cambio.',
  'CONFLICT.last_owner': 'La organización debe conservar al menos un propietario: haga propietario a otro miembro primero.',
  'CONFLICT.already_member': 'Este usuario ya es miembro: cambie su rol en su lugar.',
  'VALIDATION_FAILED.off_network':
    'Este punto no está cerca de ningún sendero que esta actividad pueda usar: muévalo a la red, o dibuje esta parte a mano alzada.',
  'VALIDATION_FAILED.other_region':
    'Este punto está en la región {there} y los anteriores en {here}; estas regiones no comparten ninguna red de senderos, así que ninguna ruta las une: mantenga todos los puntos en una misma región.',
  'VALIDATION_FAILED.start_off_network':
    'Este punto de salida no está cerca de ningún sendero que esta actividad pueda usar: muévalo a la red, o dibuje esta parte a mano alzada.',
  'VALIDATION_FAILED.chain_end_off_network':
    'El final actual del itinerario no está cerca de ningún sendero que esta actividad pueda usar: continúe con un segmento a mano alzada.',
  'BAD_REQUEST.content_length':
    'La cabecera Content-Length debe aparecer una sola vez, como un número entero de bytes; envíela una vez, o envíe el cuerpo con Transfer-Encoding: chunked.',
  'BAD_REQUEST.transfer_encoding':
    'Envíe el cuerpo con Content-Length o con Transfer-Encoding: chunked, no con ambos; chunked debe ser la última codificación de transferencia.',
  'BAD_REQUEST.host': 'Las solicitudes HTTP/1.1 requieren una cabecera Host.',
  'BAD_REQUEST.malformed':
    'La solicitud no se pudo leer como HTTP/1.1: las líneas deben terminar en CRLF y los nombres y valores de las cabeceras deben ser texto simple.',
  'BAD_REQUEST.uri_too_long':
    'La URL es demasiado larga (la línea de solicitud y las cabeceras pueden ocupar como máximo {limit} bytes); acorte la cadena de consulta.',
  'BAD_REQUEST.headers_too_large':
    'Las cabeceras de la solicitud son demasiado grandes: como máximo {limit} bytes y {fields} campos; quite las cabeceras o cookies innecesarias.',
  'BAD_REQUEST.http_version': 'Solo se sirven HTTP/1.1 y HTTP/1.0; vuelva a enviar la solicitud con uno de ellos.',
  'BAD_REQUEST.content_encoding':
    'El cuerpo de una solicitud puede enviarse sin comprimir o con Content-Encoding {accepted}; envíelo en una de estas codificaciones.',
  'BAD_REQUEST.compressed_body':
    'El cuerpo de la solicitud no se pudo descomprimir según su Content-Encoding; compruebe que está comprimido con la codificación declarada.',
  'BAD_REQUEST.invalid_utf8': 'El cuerpo de la solicitud no es UTF-8 válido: envíe el JSON codificado en UTF-8.',
  'BAD_REQUEST.json_too_deep': 'El cuerpo JSON anida objetos o listas en más de {max} niveles: envíe un documento menos profundo.',
  'VALIDATION_FAILED.not_neighbours': 'Estos segmentos deben seguirse sin huecos (solo pueden quedar fuera los extremos de la ruta).',
  'VALIDATION_FAILED.unknown_segment': 'Este segmento no forma parte del itinerario: use el id de uno de sus segmentos.',
  'VALIDATION_FAILED.waypoints_mismatch': 'Los puntos de paso conservados deben ser exactamente los extremos de los segmentos conservados.',
  'VALIDATION_FAILED.one_position': 'Un segmento a mano alzada necesita al menos una posición más allá del final actual del itinerario.',
  'VALIDATION_FAILED.merge_neighbour': 'Fusione solo con el segmento justo anterior o posterior, trazado con el mismo motor.',
  'VALIDATION_FAILED.split_at_end': 'Divida en un punto dentro del segmento, no en uno de sus extremos.',
};

const ca: Table = {
  BAD_REQUEST: 'La sol·licitud està mal formada.',
  VALIDATION_FAILED: 'Aquest valor no és vàlid.',
  UNAUTHORIZED: 'Cal una credencial vàlida.',
  PAYMENT_REQUIRED: 'La vostra organització no té el producte necessari per a aquesta sol·licitud.',
  CARD_REQUIRED: 'Cal un mitjà de pagament registrat per a aquesta sol·licitud.',
  FORBIDDEN: 'Aquesta credencial no té permís per fer això.',
  NOT_FOUND: "No s'ha trobat res aquí.",
  METHOD_NOT_ALLOWED: 'Aquest mètode no està permès en aquest camí.',
  CONFLICT: 'Aquest canvi entra en conflicte amb un recurs existent.',
  PAYLOAD_TOO_LARGE: 'El cos de la sol·licitud és massa gran (límit: {limit} bytes).',
  TOO_MANY_REQUESTS: "Massa sol·licituds; s'ha esgotat el límit per minut.",
  INTERNAL_ERROR: 'Alguna cosa ha fallat per la nostra banda.',
  NOT_IMPLEMENTED: 'Aquesta operació encara no està disponible.',
  BAD_GATEWAY: 'Un servei extern ha respost de manera inutilitzable.',
  SERVICE_UNAVAILABLE: 'El servei no està disponible temporalment.',
  GATEWAY_TIMEOUT: 'La sol·licitud ha trigat massa.',
  'BAD_REQUEST.invalid_json': 'El cos de la sol·licitud no és JSON vàlid.',
  'BAD_REQUEST.content_type': "El cos de la sol·licitud s'ha d'enviar com a {expected}.",
  'BAD_REQUEST.invalid_parameter': "No s'ha pogut interpretar un paràmetre.",
  'VALIDATION_FAILED.required': 'Aquest camp és obligatori aquí.',
  'VALIDATION_FAILED.unroutable':
    'Cap ruta de la xarxa de senders no uneix aquests punts per a aquesta activitat: moveu un punt, trieu una altra activitat o dibuixeu aquesta part a mà alçada.',
  'VALIDATION_FAILED.position': 'Una posició ha de ser [longitud, latitud] o [longitud, latitud, altitud].',
  'VALIDATION_FAILED.longitude': "La longitud ha d'estar entre -180 i 180.",
  'VALIDATION_FAILED.latitude': "La latitud ha d'estar entre -90 i 90.",
  'VALIDATION_FAILED.too_few_positions': 'Massa poques posicions per a aquesta geometria.',
  'VALIDATION_FAILED.ring_not_closed': "Un anell de polígon ha d'acabar on comença.",
  'VALIDATION_FAILED.geometry_type': 'Aquest tipus de geometria no correspon al mode de la zona.',
  'VALIDATION_FAILED.not_applicable': "Aquest camp no s'aplica a aquest mode.",
  'BAD_REQUEST.websocket_required':
    'Aquesta adreça és un WebSocket: obriu-la amb un client WebSocket (new WebSocket(url)), no amb una petició HTTP simple.',
  'NOT_IMPLEMENTED.websocket_compat':
    'El canal en directe necessita el servidor frontal per defecte; aquest servidor funciona amb HTTP_COMPAT, sense WebSockets.',
  'BAD_REQUEST.user_id':
    "Les escriptures amb una clau publicable requereixen la capçalera X-User-Id: l'identificador (uuid) del membre que fa el canvi.",
  'VALIDATION_FAILED.name_text': "Feu servir un nom d'1 a 200 caràcters en una línia, no buit i sense caràcters de control.",
  'VALIDATION_FAILED.line_text': 'Feu servir una línia de text sense caràcters de control.',
  'VALIDATION_FAILED.multiline_text': "Feu servir text simple: s'admeten salts de línia i tabulacions, altres caràcters de control no.",
  'VALIDATION_FAILED.color': 'Feu servir un color escrit #RRGGBB (o #RGB, #RRGGBBAA), per exemple #1A7F37.',
  'VALIDATION_FAILED.pattern': 'Aquest valor no té la forma esperada.',
  'VALIDATION_FAILED.more':
    "Uns altres {count} valors no són vàlids, a partir d'aquí; corregiu els llistats i torneu a enviar la sol·licitud.",
  'VALIDATION_FAILED.integer_between': 'Feu servir un nombre enter de {min} a {max}, escrit amb dígits simples.',
  'VALIDATION_FAILED.integer_from': 'Feu servir un nombre enter de com a mínim {min}, escrit amb dígits simples.',
  'VALIDATION_FAILED.integer': 'Feu servir un nombre enter escrit amb dígits simples.',
  'VALIDATION_FAILED.number_between': 'Feu servir un nombre de {min} a {max}.',
  'VALIDATION_FAILED.number_from': 'Feu servir un nombre de com a mínim {min}.',
  'VALIDATION_FAILED.number': 'Feu servir un nombre finit.',
  'VALIDATION_FAILED.body_required': 'Aquesta operació necessita un objecte JSON com a cos de la sol·licitud.',
  'VALIDATION_FAILED.type_string': 'Feu servir aquí una cadena (text entre cometes dobles).',
  'VALIDATION_FAILED.type_object': 'Feu servir aquí un objecte JSON ({…}).',
  'VALIDATION_FAILED.type_array': 'Feu servir aquí una llista JSON ([…]).',
  'VALIDATION_FAILED.type_boolean': 'Feu servir aquí true o false.',
  'VALIDATION_FAILED.type_null': 'Feu servir aquí null.',
  'VALIDATION_FAILED.enum': "Feu servir un d'aquests valors: {values}.",
  'VALIDATION_FAILED.const': "L'únic valor acceptat aquí és {value}.",
  'VALIDATION_FAILED.format_uuid': 'Feu servir un uuid, per exemple 123e4567-e89b-42d3-a456-426614174000.',
  'VALIDATION_FAILED.embed_target': 'Indiqueu què cal mostrar: collection_id, itinerary_id (o route_id), o tots dos.',
  'VALIDATION_FAILED.embed_route_id': 'route_id és un altre nom d’itinerary_id: doneu-ne un dels dos, o el mateix id a tots dos.',
  'VALIDATION_FAILED.format_date_time': 'Feu servir una data i hora ISO 8601, per exemple 2026-01-02T03:04:05Z.',
  'VALIDATION_FAILED.format_date': 'Feu servir una data ISO 8601, per exemple 2026-01-02.',
  'VALIDATION_FAILED.format_email': 'Feu servir una adreça de correu, per exemple nom@example.com.',
  'VALIDATION_FAILED.format_uri': 'Feu servir una URL absoluta, per exemple https://example.com/cami.',
  'VALIDATION_FAILED.minimum': 'Feu servir un nombre de com a mínim {limit}.',
  'VALIDATION_FAILED.maximum': 'Feu servir un nombre de com a màxim {limit}.',
  'VALIDATION_FAILED.exclusiveMinimum': 'Feu servir un nombre més gran que {limit}.',
  'VALIDATION_FAILED.exclusiveMaximum': 'Feu servir un nombre més petit que {limit}.',
  'VALIDATION_FAILED.minLength': 'Feu servir com a mínim {limit} caràcters.',
  'VALIDATION_FAILED.minLength_one': 'Doneu un valor aquí: no pot ser buit.',
  'VALIDATION_FAILED.minItems_one': 'Doneu com a mínim un element.',
  'VALIDATION_FAILED.maxLength': 'Feu servir com a màxim {limit} caràcters.',
  'VALIDATION_FAILED.minItems': 'Doneu com a mínim {limit} elements.',
  'VALIDATION_FAILED.maxItems': 'Doneu com a màxim {limit} elements; repartiu les dades més grans en diverses sol·licituds.',
  'VALIDATION_FAILED.organization_required': 'Pertanyeu a diverses organitzacions: indiqueu-ne una amb organization_id.',
  'VALIDATION_FAILED.unknown_field': "El camp «{name}» no s'accepta aquí; traieu-lo (reviseu com està escrit).",
  'VALIDATION_FAILED.any_of': 'Aquest valor no té cap de les formes acceptades: {forms}.',
  'VALIDATION_FAILED.unique_items': 'Doneu cada element només una vegada.',
  'UNAUTHORIZED.missing_key': "Envieu una clau publicable (pk_…) a la capçalera X-API-Key, o publishable_key a l'URL per a navegacions.",
  'UNAUTHORIZED.session_without_key':
    'Aquesta sol·licitud porta un testimoni de sessió però cap clau publicable: envieu a X-API-Key la clau per a la qual es va emetre.',
  'UNAUTHORIZED.unknown_key':
    'Aquesta clau publicable és desconeguda o revocada; feu servir una clau pk_ vigent de la vostra organització.',
  'UNAUTHORIZED.session_expired':
    'El testimoni de sessió ha caducat (dura 5 minuts): emeteu-ne un de nou amb POST /v1/sessions i torneu-ho a provar un cop.',
  'UNAUTHORIZED.session_invalid':
    "Aquest testimoni de sessió no l'hem emès nosaltres (és truncat o alterat): envieu-lo tal com el va tornar POST /v1/sessions.",
  'UNAUTHORIZED.session_other_key': 'Aquest testimoni de sessió es va emetre per a una altra clau publicable: envieu-lo amb la seva clau.',
  'UNAUTHORIZED.session_revoked':
    'La clau secreta que va emetre aquest testimoni ha estat revocada: emeteu-ne un de nou amb una clau secreta vigent.',
  'UNAUTHORIZED.mcp_key_pair':
    'El servidor MCP necessita la vostra clau publicable a X-API-Key i una clau secreta de la mateixa organització a X-Secret-Key.',
  'UNAUTHORIZED.mcp_token_expired':
    "El testimoni d'accés MCP ha caducat (dura una hora): renoveu-lo a POST /oauth/token amb el vostre testimoni de renovació.",
  'UNAUTHORIZED.mcp_token_invalid':
    "Aquest testimoni d'accés MCP no l'hem emès nosaltres: envieu-lo tal com el va retornar POST /oauth/token, o torneu a connectar.",
  'UNAUTHORIZED.mcp_token_revoked':
    "La clau publicable o la pertinença amb què es va concedir aquest testimoni d'accés MCP ja no existeix (clau revocada o el membre ha marxat): torneu a connectar i trieu una clau vigent.",
  'UNAUTHORIZED.mcp_grant_revoked':
    "Aquest testimoni d'accés MCP pertany a una autorització revocada (el seu codi o testimoni de renovació s'ha presentat dues vegades): torneu a connectar.",
  'UNAUTHORIZED.session_required':
    'Aquesta superfície necessita un testimoni de sessió: emeteu-ne un amb POST /v1/sessions i envieu-lo a X-Session-Token amb la seva clau publicable.',
  'UNAUTHORIZED.embed_invalid':
    'Aquesta credencial d’inserció no és vàlida: torneu a carregar la pàgina inserida per obtenir-ne una de nova.',
  'UNAUTHORIZED.embed_expired':
    'Aquesta credencial d’inserció ha caducat: torneu a carregar la pàgina inserida per obtenir-ne una de nova.',
  'UNAUTHORIZED.embed_other_key':
    'Aquesta credencial d’inserció es va emetre per a una altra clau publicable: envieu-la amb la clau de la pàgina que la va rebre.',
  'UNAUTHORIZED.user_expired': 'La vostra sessió ha caducat: torneu a iniciar sessió amb POST /v1/login.',
  'UNAUTHORIZED.user_invalid':
    "Aquest testimoni d'usuari no és vàlid: envieu-lo tal com el va tornar POST /v1/login, o torneu a iniciar sessió.",
  'FORBIDDEN.inactive_organization':
    "Aquesta organització és inactiva i per això se'n rebutgen les claus; el propietari l'ha de reactivar.",
  'NOT_FOUND.session_publishable_as_secret':
    'POST /v1/sessions s’autoritza amb una clau secreta: envieu la vostra clau sk_… a X-API-Key, i la clau publicable al cos com a publishable_key.',
  'NOT_FOUND.session_secret_key':
    'Cap clau secreta activa no coincideix amb X-API-Key: envieu una clau sk_… tal com es va mostrar en crear-la i que no estigui revocada.',
  'NOT_FOUND.session_publishable_key':
    'Cap clau publicable activa no coincideix amb publishable_key al cos: envieu una clau pk_… de la vostra organització que no estigui revocada.',
  'FORBIDDEN.session_other_organization':
    'La clau secreta i la clau publicable pertanyen a organitzacions diferents: feu servir una clau secreta de l’organització de la clau publicable.',
  'FORBIDDEN.signed_in_only':
    "Només un membre amb sessió iniciada pot fer això: envieu Authorization: Bearer usr_… (de POST /v1/login) en lloc d'una clau o un enllaç compartit.",
  'FORBIDDEN.origin': "Aquesta clau no es pot fer servir des d'aquest origen: afegiu l'origen als orígens permesos de la clau.",
  'FORBIDDEN.agent_not_configured':
    'Aquesta organització no té cap model d’IA configurat: un propietari o administrador el defineix amb PATCH /v1/management/ai (endpoint, model i api_key si el servei en demana una).',
  'BAD_GATEWAY.model_answer':
    'El model d’IA de l’organització ha respost una cosa que no és una resposta de xat: reviseu l’adreça i el model a la configuració d’IA.',
  'BAD_GATEWAY.model_refused':
    'El model d’IA de l’organització ha refusat la petició (401 o 403): reviseu la clau d’API a la configuració d’IA.',
  'SERVICE_UNAVAILABLE.model':
    'No s’ha pogut contactar amb el model d’IA de l’organització: reviseu l’adreça a la configuració d’IA o torneu-ho a provar més tard.',
  'GATEWAY_TIMEOUT.model':
    'El model d’IA de l’organització no ha respost en 60 segons: torneu-ho a provar o feu servir un model més ràpid.',
  'TOO_MANY_REQUESTS.agent': 'Ja teniu dues respostes de l’assistent en curs: espereu que n’acabi una.',
  'TOO_MANY_REQUESTS.sign_in_address':
    'Massa inicis de sessió fallits des d’aquesta adreça: espereu al minut següent i torneu-ho a provar.',
  'TOO_MANY_REQUESTS.sign_in_account': 'Massa inicis de sessió fallits per a aquest compte: espereu al minut següent i torneu-ho a provar.',
  'FORBIDDEN.embed_planner':
    'Aquesta organització no permet als seus membres obrir el planificador a les seves integracions: un propietari o administrador activa embed_planner a la configuració de gestió.',
  'FORBIDDEN.scope':
    "A aquesta clau li falta l'àmbit «{scope}» que necessita l'operació: afegiu-lo a la clau o feu servir una clau que el tingui.",
  'FORBIDDEN.not_member':
    "X-User-Id no designa cap membre d'aquesta organització: envieu l'id d'un membre propietari, administrador o col·laborador.",
  'FORBIDDEN.viewer': 'Aquest membre té el rol de lector i no pot fer canvis: actueu com a propietari, administrador o col·laborador.',
  'FORBIDDEN.share_write': 'Un enllaç compartit és només de lectura: llegeix el que cobreix però no canvia mai res.',
  'FORBIDDEN.share_surface': 'Un enllaç compartit no arriba a aquesta operació; feu servir una clau publicable o inicieu sessió.',
  'FORBIDDEN.limit_not_granted': "El vostre pla no inclou {dimension}: demaneu que s'afegeixi a la vostra organització.",
  'FORBIDDEN.limit_reached': 'El vostre pla permet {limit} {dimension}, tots en ús: elimineu-ne un o augmenteu el límit.',
  'FORBIDDEN.manager_role': "Només un propietari o un administrador pot gestionar l'organització.",
  'FORBIDDEN.owner_role': 'Només un propietari pot concedir, canviar o treure el rol de propietari.',
  'CONFLICT.itinerary_name': 'Ja hi ha aquí un itinerari amb aquest nom (vegeu extensions.metadata.itinerary.id): trieu-ne un altre.',
  'CONFLICT.collection_name': 'Ja hi ha aquí una col·lecció amb aquest nom (vegeu extensions.metadata.collection.id): trieu-ne un altre.',
  'CONFLICT.lock_held':
    'Un altre membre està editant aquesta part (extensions.metadata.holder.id): espereu que caduqui el seu bloqueig (2 minuts sense canvis) i torneu-ho a provar.',
  'CONFLICT.lock_missing':
    'Preneu primer el bloqueig d’aquesta part (POST /v1/itineraries/{itinerary_id}/locks) i torneu a enviar el canvi.',
  'CONFLICT.last_owner': "L'organització ha de conservar almenys un propietari: feu propietari un altre membre primer.",
  'CONFLICT.already_member': "Aquest usuari ja és membre: canvieu-ne el rol en lloc d'això.",
  'VALIDATION_FAILED.off_network':
    'Aquest punt no és a prop de cap sender que aquesta activitat pugui fer servir: moveu-lo a la xarxa, o dibuixeu aquesta part a mà alçada.',
  'VALIDATION_FAILED.other_region':
    'Aquest punt és a la regió {there} i els anteriors a {here}; aquestes regions no comparteixen cap xarxa de senders, així que cap ruta les uneix: manteniu tots els punts en una mateixa regió.',
  'VALIDATION_FAILED.start_off_network':
    'Aquest punt de sortida no és a prop de cap sender que aquesta activitat pugui fer servir: moveu-lo a la xarxa, o dibuixeu aquesta part a mà alçada.',
  'VALIDATION_FAILED.chain_end_off_network':
    "El final actual de l'itinerari no és a prop de cap sender que aquesta activitat pugui fer servir: continueu amb un segment a mà alçada.",
  'BAD_REQUEST.content_length':
    "La capçalera Content-Length ha d'aparèixer una sola vegada, com un nombre enter de bytes; envieu-la una vegada, o envieu el cos amb Transfer-Encoding: chunked.",
  'BAD_REQUEST.transfer_encoding':
    "Envieu el cos amb Content-Length o amb Transfer-Encoding: chunked, no amb tots dos; chunked ha de ser l'última codificació de transferència.",
  'BAD_REQUEST.host': 'Les sol·licituds HTTP/1.1 requereixen una capçalera Host.',
  'BAD_REQUEST.malformed':
    "La sol·licitud no s'ha pogut llegir com a HTTP/1.1: les línies han d'acabar en CRLF i els noms i valors de les capçaleres han de ser text simple.",
  'BAD_REQUEST.uri_too_long':
    "L'URL és massa llarga (la línia de sol·licitud i les capçaleres poden ocupar com a màxim {limit} bytes); escurceu la cadena de consulta.",
  'BAD_REQUEST.headers_too_large':
    'Les capçaleres de la sol·licitud són massa grans: com a màxim {limit} bytes i {fields} camps; traieu les capçaleres o galetes innecessàries.',
  'BAD_REQUEST.http_version': "Només se serveixen HTTP/1.1 i HTTP/1.0; torneu a enviar la sol·licitud amb un d'ells.",
  'BAD_REQUEST.content_encoding':
    "El cos d'una sol·licitud es pot enviar sense comprimir o amb Content-Encoding {accepted}; envieu-lo en una d'aquestes codificacions.",
  'BAD_REQUEST.compressed_body':
    "El cos de la sol·licitud no s'ha pogut descomprimir segons el seu Content-Encoding; comproveu que està comprimit amb la codificació declarada.",
  'BAD_REQUEST.invalid_utf8': 'El cos de la sol·licitud no és UTF-8 vàlid: envieu el JSON codificat en UTF-8.',
  'BAD_REQUEST.json_too_deep': 'El cos JSON niua objectes o llistes en més de {max} nivells: envieu un document menys profund.',
  'VALIDATION_FAILED.not_neighbours': "Aquests segments s'han de seguir sense buits (només els extrems de la ruta es poden deixar fora).",
  'VALIDATION_FAILED.unknown_segment': "Aquest segment no forma part de l'itinerari: feu servir l'id d'un dels seus segments.",
  'VALIDATION_FAILED.waypoints_mismatch': 'Els punts de pas conservats han de ser exactament els extrems dels segments conservats.',
  'VALIDATION_FAILED.one_position': "Un segment a mà alçada necessita almenys una posició més enllà del final actual de l'itinerari.",
  'VALIDATION_FAILED.merge_neighbour': 'Fusioneu només amb el segment just anterior o posterior, traçat amb el mateix motor.',
  'VALIDATION_FAILED.split_at_end': 'Dividiu en un punt dins del segment, no en un dels seus extrems.',
};

const de: Table = {
  BAD_REQUEST: 'Die Anfrage ist fehlerhaft.',
  VALIDATION_FAILED: 'Dieser Wert ist ungültig.',
  UNAUTHORIZED: 'Eine gültige Anmeldeinformation ist erforderlich.',
  PAYMENT_REQUIRED: 'Ihre Organisation besitzt das für diese Anfrage nötige Produkt nicht.',
  CARD_REQUIRED: 'Für diese Anfrage muss ein Zahlungsmittel hinterlegt sein.',
  FORBIDDEN: 'Diese Anmeldeinformation darf das nicht.',
  NOT_FOUND: 'Hier wurde nichts gefunden.',
  METHOD_NOT_ALLOWED: 'Diese Methode ist auf diesem Pfad nicht erlaubt.',
  CONFLICT: 'Diese Änderung steht im Konflikt mit einer bestehenden Ressource.',
  PAYLOAD_TOO_LARGE: 'Der Anfragetext ist zu groß (Grenze: {limit} Bytes).',
  TOO_MANY_REQUESTS: 'Zu viele Anfragen; das Minutenlimit ist ausgeschöpft.',
  INTERNAL_ERROR: 'Bei uns ist etwas schiefgelaufen.',
  NOT_IMPLEMENTED: 'Dieser Vorgang ist noch nicht verfügbar.',
  BAD_GATEWAY: 'Ein vorgelagerter Dienst hat unbrauchbar geantwortet.',
  SERVICE_UNAVAILABLE: 'Der Dienst ist vorübergehend nicht verfügbar.',
  GATEWAY_TIMEOUT: 'Die Anfrage hat zu lange gedauert.',
  'BAD_REQUEST.invalid_json': 'Der Anfragetext ist kein gültiges JSON.',
  'BAD_REQUEST.content_type': 'Der Anfragetext muss als {expected} gesendet werden.',
  'BAD_REQUEST.invalid_parameter': 'Ein Parameter konnte nicht interpretiert werden.',
  'VALIDATION_FAILED.required': 'Dieses Feld ist hier erforderlich.',
  'VALIDATION_FAILED.unroutable':
    'Keine Route im Wegenetz verbindet diese Punkte für diese Aktivität: verschieben Sie einen Punkt, wählen Sie eine andere Aktivität oder zeichnen Sie diesen Teil frei.',
  'VALIDATION_FAILED.position': 'Eine Position muss [Länge, Breite] oder [Länge, Breite, Höhe] sein.',
  'VALIDATION_FAILED.longitude': 'Die Länge muss zwischen -180 und 180 liegen.',
  'VALIDATION_FAILED.latitude': 'Die Breite muss zwischen -90 und 90 liegen.',
  'VALIDATION_FAILED.too_few_positions': 'Zu wenige Positionen für diese Geometrie.',
  'VALIDATION_FAILED.ring_not_closed': 'Ein Polygonring muss dort enden, wo er beginnt.',
  'VALIDATION_FAILED.geometry_type': 'Dieser Geometrietyp passt nicht zum Zonenmodus.',
  'VALIDATION_FAILED.not_applicable': 'Dieses Feld gilt für diesen Modus nicht.',
  'BAD_REQUEST.websocket_required':
    'Diese Adresse ist ein WebSocket: öffnen Sie sie mit einem WebSocket-Client (new WebSocket(url)), nicht mit einer einfachen HTTP-Anfrage.',
  'NOT_IMPLEMENTED.websocket_compat': 'Der Live-Kanal braucht das Standard-Frontend; dieser Server läuft mit HTTP_COMPAT, ohne WebSockets.',
  'BAD_REQUEST.user_id':
    'Schreibzugriffe mit einem öffentlichen Schlüssel brauchen den Header X-User-Id: die ID (UUID) des Mitglieds, das die Änderung vornimmt.',
  'VALIDATION_FAILED.name_text': 'Verwenden Sie einen Namen mit 1 bis 200 Zeichen in einer Zeile, nicht leer und ohne Steuerzeichen.',
  'VALIDATION_FAILED.line_text': 'Verwenden Sie eine Textzeile ohne Steuerzeichen.',
  'VALIDATION_FAILED.multiline_text':
    'Verwenden Sie einfachen Text: Zeilenumbrüche und Tabulatoren sind erlaubt, andere Steuerzeichen nicht.',
  'VALIDATION_FAILED.color': 'Verwenden Sie eine Farbe in der Form #RRGGBB (oder #RGB, #RRGGBBAA), zum Beispiel #1A7F37.',
  'VALIDATION_FAILED.pattern': 'Dieser Wert hat nicht die erwartete Form.',
  'VALIDATION_FAILED.more':
    'Ab hier sind {count} weitere Werte ungültig; korrigieren Sie die aufgeführten und senden Sie die Anfrage erneut.',
  'VALIDATION_FAILED.integer_between': 'Verwenden Sie eine ganze Zahl von {min} bis {max}, in einfachen Ziffern geschrieben.',
  'VALIDATION_FAILED.integer_from': 'Verwenden Sie eine ganze Zahl ab {min}, in einfachen Ziffern geschrieben.',
  'VALIDATION_FAILED.integer': 'Verwenden Sie eine ganze Zahl in einfachen Ziffern.',
  'VALIDATION_FAILED.number_between': 'Verwenden Sie eine Zahl von {min} bis {max}.',
  'VALIDATION_FAILED.number_from': 'Verwenden Sie eine Zahl ab {min}.',
  'VALIDATION_FAILED.number': 'Verwenden Sie eine endliche Zahl.',
  'VALIDATION_FAILED.body_required': 'Dieser Vorgang braucht ein JSON-Objekt als Anfragetext.',
  'VALIDATION_FAILED.type_string': 'Verwenden Sie hier eine Zeichenkette (Text in doppelten Anführungszeichen).',
  'VALIDATION_FAILED.type_object': 'Verwenden Sie hier ein JSON-Objekt ({…}).',
  'VALIDATION_FAILED.type_array': 'Verwenden Sie hier eine JSON-Liste ([…]).',
  'VALIDATION_FAILED.type_boolean': 'Verwenden Sie hier true oder false.',
  'VALIDATION_FAILED.type_null': 'Verwenden Sie hier null.',
  'VALIDATION_FAILED.enum': 'Verwenden Sie einen dieser Werte: {values}.',
  'VALIDATION_FAILED.const': 'Der einzige hier erlaubte Wert ist {value}.',
  'VALIDATION_FAILED.format_uuid': 'Verwenden Sie eine UUID, zum Beispiel 123e4567-e89b-42d3-a456-426614174000.',
  'VALIDATION_FAILED.embed_target': 'Geben Sie an, was gezeigt werden soll: collection_id, itinerary_id (oder route_id) oder beides.',
  'VALIDATION_FAILED.embed_route_id':
    'route_id ist ein anderer Name für itinerary_id: Geben Sie einen der beiden an oder in beiden dieselbe ID.',
  'VALIDATION_FAILED.format_date_time': 'Verwenden Sie Datum und Uhrzeit nach ISO 8601, zum Beispiel 2026-01-02T03:04:05Z.',
  'VALIDATION_FAILED.format_date': 'Verwenden Sie ein Datum nach ISO 8601, zum Beispiel 2026-01-02.',
  'VALIDATION_FAILED.format_email': 'Verwenden Sie eine E-Mail-Adresse, zum Beispiel name@example.com.',
  'VALIDATION_FAILED.format_uri': 'Verwenden Sie eine absolute URL, zum Beispiel https://example.com/pfad.',
  'VALIDATION_FAILED.minimum': 'Verwenden Sie eine Zahl von mindestens {limit}.',
  'VALIDATION_FAILED.maximum': 'Verwenden Sie eine Zahl von höchstens {limit}.',
  'VALIDATION_FAILED.exclusiveMinimum': 'Verwenden Sie eine Zahl größer als {limit}.',
  'VALIDATION_FAILED.exclusiveMaximum': 'Verwenden Sie eine Zahl kleiner als {limit}.',
  'VALIDATION_FAILED.minLength': 'Verwenden Sie mindestens {limit} Zeichen.',
  'VALIDATION_FAILED.minLength_one': 'Geben Sie hier einen Wert an: er darf nicht leer sein.',
  'VALIDATION_FAILED.minItems_one': 'Geben Sie mindestens ein Element an.',
  'VALIDATION_FAILED.maxLength': 'Verwenden Sie höchstens {limit} Zeichen.',
  'VALIDATION_FAILED.minItems': 'Geben Sie mindestens {limit} Elemente an.',
  'VALIDATION_FAILED.maxItems': 'Geben Sie höchstens {limit} Elemente an; verteilen Sie größere Daten auf mehrere Anfragen.',
  'VALIDATION_FAILED.organization_required': 'Sie gehören mehreren Organisationen an: nennen Sie eine mit organization_id.',
  'VALIDATION_FAILED.unknown_field': 'Das Feld „{name}“ wird hier nicht angenommen; entfernen Sie es (prüfen Sie die Schreibweise).',
  'VALIDATION_FAILED.any_of': 'Dieser Wert hat keine der erlaubten Formen: {forms}.',
  'VALIDATION_FAILED.unique_items': 'Geben Sie jedes Element nur einmal an.',
  'UNAUTHORIZED.missing_key':
    'Senden Sie einen öffentlichen Schlüssel (pk_…) im Header X-API-Key, oder publishable_key in der URL bei Seitenaufrufen.',
  'UNAUTHORIZED.session_without_key':
    'Diese Anfrage trägt ein Sitzungstoken, aber keinen öffentlichen Schlüssel: senden Sie in X-API-Key den Schlüssel, für den das Token ausgestellt wurde.',
  'UNAUTHORIZED.unknown_key':
    'Dieser öffentliche Schlüssel ist unbekannt oder widerrufen; verwenden Sie einen gültigen pk_-Schlüssel Ihrer Organisation.',
  'UNAUTHORIZED.session_expired':
    'Das Sitzungstoken ist abgelaufen (es gilt 5 Minuten): stellen Sie mit POST /v1/sessions ein neues aus und versuchen Sie es einmal erneut.',
  'UNAUTHORIZED.session_invalid':
    'Dieses Sitzungstoken stammt nicht von uns (es ist gekürzt oder verändert): senden Sie es genau so, wie POST /v1/sessions es geliefert hat.',
  'UNAUTHORIZED.session_other_key':
    'Dieses Sitzungstoken wurde für einen anderen öffentlichen Schlüssel ausgestellt: senden Sie es mit diesem Schlüssel.',
  'UNAUTHORIZED.session_revoked':
    'Der geheime Schlüssel, der dieses Token ausgestellt hat, wurde widerrufen: stellen Sie mit einem gültigen geheimen Schlüssel ein neues aus.',
  'UNAUTHORIZED.mcp_key_pair':
    'Der MCP-Server braucht Ihren veröffentlichbaren Schlüssel in X-API-Key und einen geheimen Schlüssel derselben Organisation in X-Secret-Key.',
  'UNAUTHORIZED.mcp_token_expired':
    'Das MCP-Zugriffstoken ist abgelaufen (es gilt eine Stunde): erneuern Sie es unter POST /oauth/token mit Ihrem Refresh-Token.',
  'UNAUTHORIZED.mcp_token_invalid':
    'Dieses MCP-Zugriffstoken stammt nicht von uns: senden Sie es genau so, wie POST /oauth/token es geliefert hat, oder verbinden Sie sich neu.',
  'UNAUTHORIZED.mcp_token_revoked':
    'Der veröffentlichbare Schlüssel oder die Mitgliedschaft, über die dieses MCP-Zugriffstoken gewährt wurde, besteht nicht mehr (Schlüssel widerrufen oder Mitglied ausgetreten): verbinden Sie sich neu und wählen Sie einen gültigen Schlüssel.',
  'UNAUTHORIZED.mcp_grant_revoked':
    'Dieses MCP-Zugriffstoken gehört zu einer widerrufenen Autorisierung (ihr Code oder Refresh-Token wurde zweimal vorgelegt): verbinden Sie sich neu.',
  'UNAUTHORIZED.session_required':
    'Diese Schnittstelle braucht ein Sitzungstoken: stellen Sie mit POST /v1/sessions eines aus und senden Sie es in X-Session-Token neben seinem öffentlichen Schlüssel.',
  'UNAUTHORIZED.embed_invalid':
    'Dieser Einbettungsnachweis ist ungültig: Laden Sie die eingebettete Seite neu, um einen neuen zu erhalten.',
  'UNAUTHORIZED.embed_expired':
    'Dieser Einbettungsnachweis ist abgelaufen: Laden Sie die eingebettete Seite neu, um einen neuen zu erhalten.',
  'UNAUTHORIZED.embed_other_key':
    'Dieser Einbettungsnachweis wurde für einen anderen veröffentlichbaren Schlüssel ausgestellt: Senden Sie ihn mit dem Schlüssel der Seite, zu der er gehört.',
  'UNAUTHORIZED.user_expired': 'Ihre Anmeldung ist abgelaufen: melden Sie sich mit POST /v1/login erneut an.',
  'UNAUTHORIZED.user_invalid':
    'Dieses Benutzertoken ist ungültig: senden Sie es genau so, wie POST /v1/login es geliefert hat, oder melden Sie sich erneut an.',
  'FORBIDDEN.inactive_organization':
    'Diese Organisation ist inaktiv, daher werden ihre Schlüssel abgelehnt; ihr Eigentümer muss sie wieder aktivieren.',
  'NOT_FOUND.session_publishable_as_secret':
    'POST /v1/sessions wird mit einem geheimen Schlüssel autorisiert: senden Sie Ihren sk_…-Schlüssel in X-API-Key und den öffentlichen Schlüssel im Text als publishable_key.',
  'NOT_FOUND.session_secret_key':
    'Kein gültiger geheimer Schlüssel entspricht X-API-Key: senden Sie einen sk_…-Schlüssel genau so, wie er bei der Erstellung angezeigt wurde und der nicht widerrufen ist.',
  'NOT_FOUND.session_publishable_key':
    'Kein gültiger öffentlicher Schlüssel entspricht publishable_key im Text: senden Sie einen nicht widerrufenen pk_…-Schlüssel Ihrer Organisation.',
  'FORBIDDEN.session_other_organization':
    'Der geheime und der öffentliche Schlüssel gehören zu verschiedenen Organisationen: verwenden Sie einen geheimen Schlüssel der Organisation des öffentlichen Schlüssels.',
  'FORBIDDEN.signed_in_only':
    'Nur ein angemeldetes Mitglied kann das tun: senden Sie Authorization: Bearer usr_… (von POST /v1/login) statt eines Schlüssels oder Freigabelinks.',
  'FORBIDDEN.origin':
    'Dieser Schlüssel darf von diesem Ursprung aus nicht verwendet werden: fügen Sie den Ursprung den erlaubten Ursprüngen des Schlüssels hinzu.',
  'FORBIDDEN.agent_not_configured':
    'Diese Organisation hat kein KI-Modell eingerichtet: ein Eigentümer oder Admin legt es mit PATCH /v1/management/ai fest (endpoint, model und api_key, falls der Dienst einen braucht).',
  'BAD_GATEWAY.model_answer':
    'Das KI-Modell der Organisation hat etwas geantwortet, das keine Chat-Antwort ist: prüfen Sie Adresse und Modell in den KI-Einstellungen.',
  'BAD_GATEWAY.model_refused':
    'Das KI-Modell der Organisation hat die Anfrage abgelehnt (401 oder 403): prüfen Sie den API-Schlüssel in den KI-Einstellungen.',
  'SERVICE_UNAVAILABLE.model':
    'Das KI-Modell der Organisation ist nicht erreichbar: prüfen Sie die Adresse in den KI-Einstellungen oder versuchen Sie es später.',
  'GATEWAY_TIMEOUT.model':
    'Das KI-Modell der Organisation hat nicht innerhalb von 60 Sekunden geantwortet: versuchen Sie es erneut oder nutzen Sie ein schnelleres Modell.',
  'TOO_MANY_REQUESTS.agent': 'Sie haben bereits zwei laufende Antworten des Assistenten: warten Sie, bis eine fertig ist.',
  'TOO_MANY_REQUESTS.sign_in_address':
    'Zu viele fehlgeschlagene Anmeldungen von dieser Adresse: warten Sie bis zur nächsten Minute und versuchen Sie es erneut.',
  'TOO_MANY_REQUESTS.sign_in_account':
    'Zu viele fehlgeschlagene Anmeldungen für dieses Konto: warten Sie bis zur nächsten Minute und versuchen Sie es erneut.',
  'FORBIDDEN.embed_planner':
    'Diese Organisation erlaubt ihren Mitgliedern nicht, den Planer in ihren Einbettungen zu öffnen: ein Eigentümer oder Admin aktiviert embed_planner in den Verwaltungseinstellungen.',
  'FORBIDDEN.scope':
    'Diesem Schlüssel fehlt der Bereich „{scope}“, den dieser Vorgang braucht: fügen Sie ihn hinzu oder verwenden Sie einen Schlüssel, der ihn hat.',
  'FORBIDDEN.not_member':
    'X-User-Id bezeichnet kein Mitglied dieser Organisation: senden Sie die ID eines Mitglieds mit der Rolle Eigentümer, Admin oder Mitwirkender.',
  'FORBIDDEN.viewer':
    'Dieses Mitglied hat die Rolle Betrachter und kann nichts ändern: handeln Sie als Eigentümer, Admin oder Mitwirkender.',
  'FORBIDDEN.share_write': 'Ein Freigabelink ist schreibgeschützt: er liest, was er abdeckt, ändert aber nie etwas.',
  'FORBIDDEN.share_surface':
    'Ein Freigabelink reicht nicht bis zu diesem Vorgang; verwenden Sie einen öffentlichen Schlüssel oder melden Sie sich an.',
  'FORBIDDEN.limit_not_granted': 'Ihr Tarif umfasst {dimension} nicht: lassen Sie es Ihrer Organisation hinzufügen.',
  'FORBIDDEN.limit_reached': 'Ihr Tarif erlaubt {limit} {dimension}, alle belegt: löschen Sie eines oder erhöhen Sie das Limit.',
  'FORBIDDEN.manager_role': 'Nur ein Eigentümer oder Admin kann die Organisation verwalten.',
  'FORBIDDEN.owner_role': 'Nur ein Eigentümer kann die Eigentümerrolle vergeben, ändern oder entziehen.',
  'CONFLICT.itinerary_name':
    'Hier gibt es bereits eine Route mit diesem Namen (siehe extensions.metadata.itinerary.id): wählen Sie einen anderen Namen.',
  'CONFLICT.collection_name':
    'Hier gibt es bereits eine Sammlung mit diesem Namen (siehe extensions.metadata.collection.id): wählen Sie einen anderen Namen.',
  'CONFLICT.lock_held':
    'Ein anderes Mitglied bearbeitet diesen Teil (extensions.metadata.holder.id): warten Sie, bis seine Sperre abläuft (2 Minuten ohne Änderung), und versuchen Sie es erneut.',
  'CONFLICT.lock_missing':
    'Sperren Sie diesen Teil zuerst (POST /v1/itineraries/{itinerary_id}/locks) und senden Sie die Änderung dann erneut.',
  'CONFLICT.last_owner':
    'Die Organisation muss mindestens einen Eigentümer behalten: machen Sie zuerst ein anderes Mitglied zum Eigentümer.',
  'CONFLICT.already_member': 'Dieser Benutzer ist bereits Mitglied: ändern Sie stattdessen seine Rolle.',
  'VALIDATION_FAILED.off_network':
    'Dieser Punkt liegt an keinem Weg, den diese Aktivität nutzen darf: verschieben Sie ihn auf das Netz oder zeichnen Sie diesen Teil frei.',
  'VALIDATION_FAILED.other_region':
    'Dieser Punkt liegt in der Region {there}, die Punkte davor in {here}; diese Regionen teilen kein Wegenetz, keine Route verbindet sie: halten Sie alle Punkte in einer Region.',
  'VALIDATION_FAILED.start_off_network':
    'Dieser Startpunkt liegt an keinem Weg, den diese Aktivität nutzen darf: verschieben Sie ihn auf das Netz oder zeichnen Sie diesen Teil frei.',
  'VALIDATION_FAILED.chain_end_off_network':
    'Das aktuelle Ende der Route liegt an keinem Weg, den diese Aktivität nutzen darf: fahren Sie mit einem frei gezeichneten Segment fort.',
  'BAD_REQUEST.content_length':
    'Der Header Content-Length muss genau einmal vorkommen, als ganze Zahl von Bytes; senden Sie ihn einmal, oder senden Sie den Text mit Transfer-Encoding: chunked.',
  'BAD_REQUEST.transfer_encoding':
    'Senden Sie den Anfragetext entweder mit Content-Length oder mit Transfer-Encoding: chunked, nicht mit beidem; chunked muss die letzte Übertragungskodierung sein.',
  'BAD_REQUEST.host': 'HTTP/1.1-Anfragen brauchen einen Host-Header.',
  'BAD_REQUEST.malformed':
    'Die Anfrage konnte nicht als HTTP/1.1 gelesen werden: Zeilen müssen mit CRLF enden, Header-Namen und -Werte müssen einfacher Text sein.',
  'BAD_REQUEST.uri_too_long': 'Die URL ist zu lang (Anfragezeile und Header dürfen höchstens {limit} Bytes belegen); kürzen Sie die Query.',
  'BAD_REQUEST.headers_too_large':
    'Die Anfrage-Header sind zu groß: höchstens {limit} Bytes und {fields} Header-Felder; entfernen Sie unnötige Header oder Cookies.',
  'BAD_REQUEST.http_version': 'Nur HTTP/1.1 und HTTP/1.0 werden bedient; senden Sie die Anfrage erneut mit einer dieser Versionen.',
  'BAD_REQUEST.content_encoding':
    'Anfragetexte dürfen unkomprimiert oder mit Content-Encoding {accepted} gesendet werden; senden Sie den Text in einer dieser Kodierungen.',
  'BAD_REQUEST.compressed_body':
    'Der Anfragetext konnte nicht gemäß seinem Content-Encoding entpackt werden; prüfen Sie, ob er mit der angegebenen Kodierung komprimiert ist.',
  'BAD_REQUEST.invalid_utf8': 'Der Anfragetext ist kein gültiges UTF-8: senden Sie das JSON in UTF-8 kodiert.',
  'BAD_REQUEST.json_too_deep':
    'Der JSON-Text verschachtelt Objekte oder Arrays tiefer als {max} Ebenen: senden Sie ein flacheres Dokument.',
  'VALIDATION_FAILED.not_neighbours': 'Diese Segmente müssen lückenlos aufeinander folgen (nur die Enden der Route dürfen wegfallen).',
  'VALIDATION_FAILED.unknown_segment': 'Dieses Segment gehört nicht zur Route: verwenden Sie die ID eines ihrer Segmente.',
  'VALIDATION_FAILED.waypoints_mismatch': 'Die behaltenen Wegpunkte müssen genau die Enden der behaltenen Segmente sein.',
  'VALIDATION_FAILED.one_position': 'Ein frei gezeichnetes Segment braucht mindestens eine Position nach dem aktuellen Ende der Route.',
  'VALIDATION_FAILED.merge_neighbour':
    'Führen Sie nur mit dem direkt vorherigen oder folgenden Segment zusammen, das mit derselben Methode gezeichnet ist.',
  'VALIDATION_FAILED.split_at_end': 'Teilen Sie an einem Punkt innerhalb des Segments, nicht an einem seiner Enden.',
};

export const MESSAGES: Record<Language, Table> = {
  en: { ...en, ...DATA_API_MESSAGES.en, ...MCP_MESSAGES.en, ...IMPORT_WARNING_MESSAGES.en },
  fr: { ...fr, ...DATA_API_MESSAGES.fr, ...MCP_MESSAGES.fr, ...IMPORT_WARNING_MESSAGES.fr },
  es: { ...es, ...DATA_API_MESSAGES.es, ...MCP_MESSAGES.es, ...IMPORT_WARNING_MESSAGES.es },
  ca: { ...ca, ...DATA_API_MESSAGES.ca, ...MCP_MESSAGES.ca, ...IMPORT_WARNING_MESSAGES.ca },
  de: { ...de, ...DATA_API_MESSAGES.de, ...MCP_MESSAGES.de, ...IMPORT_WARNING_MESSAGES.de },
};

/** The sentence for `key` in `lang`, with `{name}` placeholders filled; falls back to English, then to the code. */
export function message(lang: Language, key: string, params?: Record<string, string | number>): string {
  const template = MESSAGES[lang][key] ?? MESSAGES.en[key] ?? MESSAGES[lang][key.split('.')[0] ?? ''] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}
