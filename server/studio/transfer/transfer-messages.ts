// Localized sentences for import failures, and the one place where a parse problem becomes an ApiError.
// A sentence says what is wrong in the user's terms; it never quotes the file (parameters are numbers or
// format codes, never text from the upload).

import { ApiError, type ErrorPath } from '../../errors.js';
import type { Language } from '../../i18n/messages.js';
import type { ImportFileProblem, ProblemKey, XmlFormat } from '../../../contracts/transfer.js';

const FORMATS: Record<Language, Record<XmlFormat, string>> = {
  en: { gpx: 'GPX', kml: 'KML', xml: 'GPX or KML' },
  fr: { gpx: 'GPX', kml: 'KML', xml: 'GPX ou KML' },
  es: { gpx: 'GPX', kml: 'KML', xml: 'GPX o KML' },
  ca: { gpx: 'GPX', kml: 'KML', xml: 'GPX o KML' },
  de: { gpx: 'GPX', kml: 'KML', xml: 'GPX oder KML' },
};

const TABLE: Record<Language, Record<ProblemKey, string>> = {
  en: {
    empty: 'The request body is empty: send a GPX, KML, KMZ or GeoJSON file.',
    not_text: 'The file is binary data, not GPX, KML or GeoJSON text: send the file itself, or a KMZ archive.',
    malformed_xml: 'The file is not valid {format}: the XML is malformed.',
    malformed_xml_at: 'The file is not valid {format}: the XML is malformed near line {line}, column {column}.',
    not_gpx_or_kml: 'The XML document is neither GPX (<gpx>) nor KML (<kml>).',
    malformed_json: 'The file is not valid GeoJSON: the JSON is malformed.',
    json_too_deep: 'The GeoJSON nests objects or arrays more than {max} levels deep: no GeoJSON needs that many; send a flatter file.',
    not_geojson: 'The JSON document is not GeoJSON (a FeatureCollection, a Feature or a geometry).',
    kmz_broken:
      'The KMZ archive cannot be read: it is damaged or incomplete, or compressed with a method other than deflate. Export it again.',
    kmz_encrypted: 'The KMZ archive is protected by a password: export it again without one.',
    kmz_no_kml: 'The KMZ archive holds no KML file (doc.kml or another .kml file).',
    kmz_too_large: 'The KML inside the KMZ archive is larger than {limit} bytes once unpacked: import a shorter track.',
    no_line: 'The file holds no track, route or line to import.',
    out_of_range: 'Point {index} is out of range: longitude must lie within ±180 and latitude within ±90 degrees.',
    too_short: 'The track needs at least two points.',
  },
  fr: {
    empty: 'Le corps de la requête est vide : envoyez un fichier GPX, KML, KMZ ou GeoJSON.',
    not_text:
      'Le fichier contient des données binaires, pas du texte GPX, KML ou GeoJSON : envoyez le fichier lui-même, ou une archive KMZ.',
    malformed_xml: "Le fichier n'est pas un {format} valide : le XML est mal formé.",
    malformed_xml_at: "Le fichier n'est pas un {format} valide : le XML est mal formé vers la ligne {line}, colonne {column}.",
    not_gpx_or_kml: "Le document XML n'est ni du GPX (<gpx>) ni du KML (<kml>).",
    malformed_json: "Le fichier n'est pas un GeoJSON valide : le JSON est mal formé.",
    json_too_deep:
      'Le GeoJSON imbrique des objets ou des tableaux sur plus de {max} niveaux : aucun GeoJSON n’en a besoin ; envoyez un fichier moins profond.',
    not_geojson: "Le document JSON n'est pas du GeoJSON (FeatureCollection, Feature ou géométrie).",
    kmz_broken:
      "L'archive KMZ est illisible : elle est endommagée ou incomplète, ou compressée autrement qu'en deflate. Exportez-la à nouveau.",
    kmz_encrypted: "L'archive KMZ est protégée par un mot de passe : exportez-la à nouveau sans mot de passe.",
    kmz_no_kml: "L'archive KMZ ne contient aucun fichier KML (doc.kml ou autre fichier .kml).",
    kmz_too_large: "Le KML de l'archive KMZ dépasse {limit} octets une fois décompressé : importez une trace plus courte.",
    no_line: 'Le fichier ne contient aucune trace, aucun itinéraire ni aucune ligne à importer.',
    out_of_range: 'Le point {index} est hors limites : la longitude doit être comprise dans ±180 et la latitude dans ±90 degrés.',
    too_short: 'La trace doit compter au moins deux points.',
  },
  es: {
    empty: 'El cuerpo de la solicitud está vacío: envíe un archivo GPX, KML, KMZ o GeoJSON.',
    not_text: 'El archivo contiene datos binarios, no texto GPX, KML o GeoJSON: envíe el archivo en sí, o un archivo KMZ.',
    malformed_xml: 'El archivo no es {format} válido: el XML está mal formado.',
    malformed_xml_at: 'El archivo no es {format} válido: el XML está mal formado cerca de la línea {line}, columna {column}.',
    not_gpx_or_kml: 'El documento XML no es GPX (<gpx>) ni KML (<kml>).',
    malformed_json: 'El archivo no es GeoJSON válido: el JSON está mal formado.',
    json_too_deep:
      'El GeoJSON anida objetos o listas en más de {max} niveles: ningún GeoJSON lo necesita; envíe un archivo menos profundo.',
    not_geojson: 'El documento JSON no es GeoJSON (FeatureCollection, Feature o geometría).',
    kmz_broken:
      'No se puede leer el archivo KMZ: está dañado o incompleto, o comprimido con un método distinto de deflate. Expórtelo de nuevo.',
    kmz_encrypted: 'El archivo KMZ está protegido con contraseña: expórtelo de nuevo sin ella.',
    kmz_no_kml: 'El archivo KMZ no contiene ningún archivo KML (doc.kml u otro archivo .kml).',
    kmz_too_large: 'El KML del archivo KMZ supera los {limit} bytes una vez descomprimido: importe un track más corto.',
    no_line: 'El archivo no contiene ningún track, ruta ni línea que importar.',
    out_of_range: 'El punto {index} está fuera de rango: la longitud debe estar en ±180 y la latitud en ±90 grados.',
    too_short: 'El track necesita al menos dos puntos.',
  },
  ca: {
    empty: 'El cos de la sol·licitud és buit: envieu un fitxer GPX, KML, KMZ o GeoJSON.',
    not_text: 'El fitxer conté dades binàries, no text GPX, KML o GeoJSON: envieu el fitxer mateix, o un arxiu KMZ.',
    malformed_xml: 'El fitxer no és {format} vàlid: l’XML està mal format.',
    malformed_xml_at: 'El fitxer no és {format} vàlid: l’XML està mal format prop de la línia {line}, columna {column}.',
    not_gpx_or_kml: 'El document XML no és ni GPX (<gpx>) ni KML (<kml>).',
    malformed_json: 'El fitxer no és GeoJSON vàlid: el JSON està mal format.',
    json_too_deep:
      'El GeoJSON niua objectes o llistes en més de {max} nivells: cap GeoJSON no ho necessita; envieu un fitxer menys profund.',
    not_geojson: 'El document JSON no és GeoJSON (FeatureCollection, Feature o geometria).',
    kmz_broken:
      'No es pot llegir l’arxiu KMZ: està malmès o incomplet, o comprimit amb un mètode diferent de deflate. Torneu-lo a exportar.',
    kmz_encrypted: 'L’arxiu KMZ està protegit amb contrasenya: torneu-lo a exportar sense.',
    kmz_no_kml: 'L’arxiu KMZ no conté cap fitxer KML (doc.kml o un altre fitxer .kml).',
    kmz_too_large: 'El KML de l’arxiu KMZ supera els {limit} bytes un cop descomprimit: importeu un track més curt.',
    no_line: 'El fitxer no conté cap track, ruta ni línia per importar.',
    out_of_range: 'El punt {index} és fora de rang: la longitud ha de ser dins ±180 i la latitud dins ±90 graus.',
    too_short: 'El track necessita almenys dos punts.',
  },
  de: {
    empty: 'Der Anfragetext ist leer: Senden Sie eine GPX-, KML-, KMZ- oder GeoJSON-Datei.',
    not_text: 'Die Datei enthält Binärdaten, keinen GPX-, KML- oder GeoJSON-Text: Senden Sie die Datei selbst oder ein KMZ-Archiv.',
    malformed_xml: 'Die Datei ist kein gültiges {format}: Das XML ist fehlerhaft.',
    malformed_xml_at: 'Die Datei ist kein gültiges {format}: Das XML ist fehlerhaft bei Zeile {line}, Spalte {column}.',
    not_gpx_or_kml: 'Das XML-Dokument ist weder GPX (<gpx>) noch KML (<kml>).',
    malformed_json: 'Die Datei ist kein gültiges GeoJSON: Das JSON ist fehlerhaft.',
    json_too_deep:
      'Das GeoJSON verschachtelt Objekte oder Arrays tiefer als {max} Ebenen: kein GeoJSON braucht das; senden Sie eine flachere Datei.',
    not_geojson: 'Das JSON-Dokument ist kein GeoJSON (FeatureCollection, Feature oder Geometrie).',
    kmz_broken:
      'Das KMZ-Archiv ist nicht lesbar: Es ist beschädigt, unvollständig oder nicht mit deflate komprimiert. Exportieren Sie es erneut.',
    kmz_encrypted: 'Das KMZ-Archiv ist mit einem Passwort geschützt: Exportieren Sie es erneut ohne Passwort.',
    kmz_no_kml: 'Das KMZ-Archiv enthält keine KML-Datei (doc.kml oder eine andere .kml-Datei).',
    kmz_too_large: 'Die KML im KMZ-Archiv ist entpackt größer als {limit} Bytes: Importieren Sie einen kürzeren Track.',
    no_line: 'Die Datei enthält keinen Track, keine Route und keine Linie zum Importieren.',
    out_of_range: 'Punkt {index} liegt außerhalb des Bereichs: Längengrad innerhalb ±180, Breitengrad innerhalb ±90 Grad.',
    too_short: 'Der Track braucht mindestens zwei Punkte.',
  },
};

/** Problems with the file's content are a VALIDATION_FAILED entry at `path` (the file); whole-file problems BAD_REQUEST. */
const VALIDATION: ReadonlySet<ProblemKey> = new Set(['no_line', 'out_of_range', 'too_short']);
/** An archive that unpacks beyond the import limit is as large as a body beyond it. */
const TOO_LARGE: ReadonlySet<ProblemKey> = new Set(['kmz_too_large']);

export function problemToError(problem: ImportFileProblem['problem'], lang: Language, path: ErrorPath): ApiError {
  const template = TABLE[lang][problem.key] ?? TABLE.en[problem.key];
  const message = template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = problem.params[name];
    if (value === undefined) return whole;
    return name === 'format' ? (FORMATS[lang][value as XmlFormat] ?? FORMATS[lang].xml) : String(value);
  });
  if (VALIDATION.has(problem.key)) return ApiError.validation([{ path, message }]);
  if (TOO_LARGE.has(problem.key)) return new ApiError('PAYLOAD_TOO_LARGE', [{ code: 'PAYLOAD_TOO_LARGE', message }]);
  return new ApiError('BAD_REQUEST', [{ code: 'BAD_REQUEST', message }]);
}
