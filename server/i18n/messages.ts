// Localized sentences for every error code and the few specific message keys the server emits.
// Messages are for people, never a contract: clients branch on `extensions.code`.

import type { ErrorCode } from '../errors.js';

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
  'VALIDATION_FAILED.unroutable': 'No route on the trail network connects these points.',
  'VALIDATION_FAILED.position': 'A position must be [longitude, latitude] or [longitude, latitude, elevation].',
  'VALIDATION_FAILED.longitude': 'Longitude must be between -180 and 180.',
  'VALIDATION_FAILED.latitude': 'Latitude must be between -90 and 90.',
  'VALIDATION_FAILED.too_few_positions': 'Too few positions for this geometry.',
  'VALIDATION_FAILED.ring_not_closed': 'A polygon ring must end where it starts.',
  'VALIDATION_FAILED.geometry_type': 'This geometry type does not fit the zone mode.',
  'VALIDATION_FAILED.not_applicable': 'This field does not apply to this mode.',
};

const fr: Table = {
  BAD_REQUEST: 'La requête est mal formée.',
  VALIDATION_FAILED: "Cette valeur n'est pas valide.",
  UNAUTHORIZED: 'Un identifiant valide est requis.',
  PAYMENT_REQUIRED: "Votre organisation ne détient pas le produit requis pour cette requête.",
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
  'VALIDATION_FAILED.unroutable': 'Aucun itinéraire du réseau de sentiers ne relie ces points.',
  'VALIDATION_FAILED.position': 'Une position doit être [longitude, latitude] ou [longitude, latitude, altitude].',
  'VALIDATION_FAILED.longitude': 'La longitude doit être comprise entre -180 et 180.',
  'VALIDATION_FAILED.latitude': 'La latitude doit être comprise entre -90 et 90.',
  'VALIDATION_FAILED.too_few_positions': 'Trop peu de positions pour cette géométrie.',
  'VALIDATION_FAILED.ring_not_closed': 'Un anneau de polygone doit se terminer là où il commence.',
  'VALIDATION_FAILED.geometry_type': 'Ce type de géométrie ne convient pas au mode de la zone.',
  'VALIDATION_FAILED.not_applicable': "Ce champ ne s'applique pas à ce mode.",
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
  'VALIDATION_FAILED.unroutable': 'Ninguna ruta de la red de senderos une estos puntos.',
  'VALIDATION_FAILED.position': 'Una posición debe ser [longitud, latitud] o [longitud, latitud, altitud].',
  'VALIDATION_FAILED.longitude': 'La longitud debe estar entre -180 y 180.',
  'VALIDATION_FAILED.latitude': 'La latitud debe estar entre -90 y 90.',
  'VALIDATION_FAILED.too_few_positions': 'Muy pocas posiciones para esta geometría.',
  'VALIDATION_FAILED.ring_not_closed': 'Un anillo de polígono debe terminar donde empieza.',
  'VALIDATION_FAILED.geometry_type': 'Este tipo de geometría no corresponde al modo de la zona.',
  'VALIDATION_FAILED.not_applicable': 'Este campo no se aplica a este modo.',
};

const ca: Table = {
  BAD_REQUEST: 'La sol·licitud està mal formada.',
  VALIDATION_FAILED: 'Aquest valor no és vàlid.',
  UNAUTHORIZED: 'Cal una credencial vàlida.',
  PAYMENT_REQUIRED: "La vostra organització no té el producte necessari per a aquesta sol·licitud.",
  CARD_REQUIRED: "Cal un mitjà de pagament registrat per a aquesta sol·licitud.",
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
  'VALIDATION_FAILED.unroutable': 'Cap ruta de la xarxa de senders no uneix aquests punts.',
  'VALIDATION_FAILED.position': 'Una posició ha de ser [longitud, latitud] o [longitud, latitud, altitud].',
  'VALIDATION_FAILED.longitude': "La longitud ha d'estar entre -180 i 180.",
  'VALIDATION_FAILED.latitude': "La latitud ha d'estar entre -90 i 90.",
  'VALIDATION_FAILED.too_few_positions': 'Massa poques posicions per a aquesta geometria.',
  'VALIDATION_FAILED.ring_not_closed': "Un anell de polígon ha d'acabar on comença.",
  'VALIDATION_FAILED.geometry_type': 'Aquest tipus de geometria no correspon al mode de la zona.',
  'VALIDATION_FAILED.not_applicable': "Aquest camp no s'aplica a aquest mode.",
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
  'VALIDATION_FAILED.unroutable': 'Keine Route im Wegenetz verbindet diese Punkte.',
  'VALIDATION_FAILED.position': 'Eine Position muss [Länge, Breite] oder [Länge, Breite, Höhe] sein.',
  'VALIDATION_FAILED.longitude': 'Die Länge muss zwischen -180 und 180 liegen.',
  'VALIDATION_FAILED.latitude': 'Die Breite muss zwischen -90 und 90 liegen.',
  'VALIDATION_FAILED.too_few_positions': 'Zu wenige Positionen für diese Geometrie.',
  'VALIDATION_FAILED.ring_not_closed': 'Ein Polygonring muss dort enden, wo er beginnt.',
  'VALIDATION_FAILED.geometry_type': 'Dieser Geometrietyp passt nicht zum Zonenmodus.',
  'VALIDATION_FAILED.not_applicable': 'Dieses Feld gilt für diesen Modus nicht.',
};

export const MESSAGES: Record<Language, Table> = { en, fr, es, ca, de };

/** The sentence for `key` in `lang`, with `{name}` placeholders filled; falls back to English, then to the code. */
export function message(
  lang: Language,
  key: string,
  params?: Record<string, string | number>,
): string {
  const template = MESSAGES[lang][key] ?? MESSAGES.en[key] ?? MESSAGES[lang][key.split('.')[0] ?? ''] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}
