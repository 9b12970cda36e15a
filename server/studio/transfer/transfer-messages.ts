// Localized sentences for import failures, and the one place where a parse problem becomes an ApiError.

import { ApiError } from '../../errors.js';
import type { Language } from '../../i18n/messages.js';

export type ProblemKey =
  | 'empty'
  | 'malformed_xml'
  | 'not_gpx_or_kml'
  | 'malformed_json'
  | 'not_geojson'
  | 'no_line'
  | 'out_of_range'
  | 'too_short';

/** A file that cannot be imported, with the reason; rendered by `problemToError` in the caller's language. */
export class ImportProblem extends Error {
  constructor(
    readonly key: ProblemKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

const TABLE: Record<Language, Record<ProblemKey, string>> = {
  en: {
    empty: 'The request body is empty: send a GPX, KML or GeoJSON file.',
    malformed_xml: 'The file is not well-formed XML ({detail}).',
    not_gpx_or_kml: 'The XML document is neither GPX (<gpx>) nor KML (<kml>).',
    malformed_json: 'The file is not valid JSON.',
    not_geojson: 'The JSON document is not GeoJSON (a FeatureCollection, a Feature or a geometry).',
    no_line: 'The file holds no track, route or line to import.',
    out_of_range: 'Point {index} is out of range: longitude must lie within ±180 and latitude within ±90 degrees.',
    too_short: 'The track needs at least two points.',
  },
  fr: {
    empty: 'Le corps de la requête est vide : envoyez un fichier GPX, KML ou GeoJSON.',
    malformed_xml: "Le fichier n'est pas un XML bien formé ({detail}).",
    not_gpx_or_kml: "Le document XML n'est ni du GPX (<gpx>) ni du KML (<kml>).",
    malformed_json: "Le fichier n'est pas un JSON valide.",
    not_geojson: "Le document JSON n'est pas du GeoJSON (FeatureCollection, Feature ou géométrie).",
    no_line: "Le fichier ne contient aucune trace, aucun itinéraire ni aucune ligne à importer.",
    out_of_range: 'Le point {index} est hors limites : la longitude doit être comprise dans ±180 et la latitude dans ±90 degrés.',
    too_short: 'La trace doit compter au moins deux points.',
  },
  es: {
    empty: 'El cuerpo de la solicitud está vacío: envíe un archivo GPX, KML o GeoJSON.',
    malformed_xml: 'El archivo no es XML bien formado ({detail}).',
    not_gpx_or_kml: 'El documento XML no es GPX (<gpx>) ni KML (<kml>).',
    malformed_json: 'El archivo no es JSON válido.',
    not_geojson: 'El documento JSON no es GeoJSON (FeatureCollection, Feature o geometría).',
    no_line: 'El archivo no contiene ningún track, ruta ni línea que importar.',
    out_of_range: 'El punto {index} está fuera de rango: la longitud debe estar en ±180 y la latitud en ±90 grados.',
    too_short: 'El track necesita al menos dos puntos.',
  },
  ca: {
    empty: 'El cos de la sol·licitud és buit: envieu un fitxer GPX, KML o GeoJSON.',
    malformed_xml: 'El fitxer no és XML ben format ({detail}).',
    not_gpx_or_kml: 'El document XML no és ni GPX (<gpx>) ni KML (<kml>).',
    malformed_json: 'El fitxer no és JSON vàlid.',
    not_geojson: 'El document JSON no és GeoJSON (FeatureCollection, Feature o geometria).',
    no_line: 'El fitxer no conté cap track, ruta ni línia per importar.',
    out_of_range: 'El punt {index} és fora de rang: la longitud ha de ser dins ±180 i la latitud dins ±90 graus.',
    too_short: 'El track necessita almenys dos punts.',
  },
  de: {
    empty: 'Der Anfragetext ist leer: Senden Sie eine GPX-, KML- oder GeoJSON-Datei.',
    malformed_xml: 'Die Datei ist kein wohlgeformtes XML ({detail}).',
    not_gpx_or_kml: 'Das XML-Dokument ist weder GPX (<gpx>) noch KML (<kml>).',
    malformed_json: 'Die Datei ist kein gültiges JSON.',
    not_geojson: 'Das JSON-Dokument ist kein GeoJSON (FeatureCollection, Feature oder Geometrie).',
    no_line: 'Die Datei enthält keinen Track, keine Route und keine Linie zum Importieren.',
    out_of_range: 'Punkt {index} liegt außerhalb des Bereichs: Längengrad innerhalb ±180, Breitengrad innerhalb ±90 Grad.',
    too_short: 'Der Track braucht mindestens zwei Punkte.',
  },
};

/** Whole-file problems are BAD_REQUEST; problems with the file's content are a VALIDATION_FAILED entry on the body. */
const VALIDATION: ReadonlySet<ProblemKey> = new Set(['no_line', 'out_of_range', 'too_short']);

export function problemToError(problem: ImportProblem, lang: Language): ApiError {
  const template = TABLE[lang][problem.key] ?? TABLE.en[problem.key];
  const message = template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    problem.params[name] === undefined ? whole : String(problem.params[name]),
  );
  if (VALIDATION.has(problem.key)) return ApiError.validation([{ path: ['request', 'body'], message }]);
  return new ApiError('BAD_REQUEST', [{ code: 'BAD_REQUEST', message }]);
}
