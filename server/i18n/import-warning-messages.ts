// Localized sentences of the warnings an import answers (what the file held that the itinerary does not keep),
// keyed `IMPORT_WARNING.<kind>` (contracts/transfer.ts). Merged into the one message table
// (messages.ts). Like the import's refusals, a sentence never quotes the file: its parameters are numbers.

type Sentences = Record<string, string>;

const en: Sentences = {
  'IMPORT_WARNING.track_point_time':
    'Track point times left out: {count}. An itinerary keeps where each point is and its elevation, not when it was recorded.',
  'IMPORT_WARNING.track_point_extension':
    'Track points whose sensor data (heart rate, cadence, temperature…) was left out: {count}. An itinerary keeps positions and elevations only.',
  'IMPORT_WARNING.waypoint_time': 'Waypoint times left out: {count}. A waypoint keeps its name, kind and description, not a time.',
  'IMPORT_WARNING.waypoint_symbol': "Waypoint symbols left out: {count}. The waypoint's type became its kind, and a waypoint has one kind.",
  'IMPORT_WARNING.waypoint_moved_onto_track':
    'Waypoints moved onto the track: {count}, by up to {distance} m. Waypoints join the segments of the track, so each one off the track now sits at its nearest track point.',
  'IMPORT_WARNING.waypoint_same_track_point':
    'Waypoints left out because an earlier waypoint already marks the same track point: {count}. Move them apart in the file to keep them.',
  'IMPORT_WARNING.style': 'Styles left out (colours, widths, icons): {count}. Itineraries are drawn with the map style of Cairn.',
  'IMPORT_WARNING.feature_properties':
    'Features or points whose other data (extended data, links, properties without a field in Cairn) was left out: {count}.',
  'IMPORT_WARNING.other_geometry':
    'Shapes other than lines and points (polygons…) left out: {count}. An itinerary is a line with waypoints; draw areas as zones.',
  'IMPORT_WARNING.route':
    'Routes left out: {count}. The file has tracks, which are what was walked; import the routes as a file of their own to keep them.',
};

const fr: Sentences = {
  'IMPORT_WARNING.track_point_time':
    "Horodatages de points de trace omis : {count}. Un itinéraire garde la position et l'altitude de chaque point, pas l'heure de son relevé.",
  'IMPORT_WARNING.track_point_extension':
    'Points de trace dont les données de capteurs (fréquence cardiaque, cadence, température…) ont été omises : {count}. Un itinéraire ne garde que les positions et les altitudes.',
  'IMPORT_WARNING.waypoint_time':
    "Horodatages de points de passage omis : {count}. Un point de passage garde son nom, son type et sa description, pas d'heure.",
  'IMPORT_WARNING.waypoint_symbol':
    'Symboles de points de passage omis : {count}. Le type du point est devenu son type dans Cairn, et un point de passage n’en a qu’un.',
  'IMPORT_WARNING.waypoint_moved_onto_track':
    'Points de passage déplacés sur la trace : {count}, de {distance} m au plus. Les points de passage relient les segments de la trace : chaque point hors trace est placé sur le point de trace le plus proche.',
  'IMPORT_WARNING.waypoint_same_track_point':
    'Points de passage omis parce qu’un point précédent marque déjà le même point de trace : {count}. Écartez-les dans le fichier pour les garder.',
  'IMPORT_WARNING.style':
    'Styles omis (couleurs, épaisseurs, icônes) : {count}. Les itinéraires sont dessinés avec le style de carte de Cairn.',
  'IMPORT_WARNING.feature_properties':
    'Éléments ou points dont les autres données (données étendues, liens, propriétés sans champ dans Cairn) ont été omises : {count}.',
  'IMPORT_WARNING.other_geometry':
    'Formes autres que des lignes et des points (polygones…) omises : {count}. Un itinéraire est une ligne avec des points de passage ; dessinez les zones comme zones.',
  'IMPORT_WARNING.route':
    'Routes omises : {count}. Le fichier contient des traces, qui sont le parcours réel ; importez les routes dans un fichier à part pour les garder.',
};

const es: Sentences = {
  'IMPORT_WARNING.track_point_time':
    'Horas de puntos del track omitidas: {count}. Un itinerario guarda la posición y la altitud de cada punto, no cuándo se registró.',
  'IMPORT_WARNING.track_point_extension':
    'Puntos del track cuyos datos de sensores (frecuencia cardíaca, cadencia, temperatura…) se omitieron: {count}. Un itinerario guarda solo posiciones y altitudes.',
  'IMPORT_WARNING.waypoint_time':
    'Horas de waypoints omitidas: {count}. Un waypoint guarda su nombre, su tipo y su descripción, no una hora.',
  'IMPORT_WARNING.waypoint_symbol':
    'Símbolos de waypoints omitidos: {count}. El tipo del waypoint pasó a ser su tipo en Cairn, y un waypoint tiene uno solo.',
  'IMPORT_WARNING.waypoint_moved_onto_track':
    'Waypoints movidos sobre el track: {count}, hasta {distance} m. Los waypoints unen los segmentos del track, así que cada uno fuera del track está ahora en su punto del track más cercano.',
  'IMPORT_WARNING.waypoint_same_track_point':
    'Waypoints omitidos porque un waypoint anterior ya marca el mismo punto del track: {count}. Sepárelos en el archivo para conservarlos.',
  'IMPORT_WARNING.style':
    'Estilos omitidos (colores, grosores, iconos): {count}. Los itinerarios se dibujan con el estilo de mapa de Cairn.',
  'IMPORT_WARNING.feature_properties':
    'Elementos o puntos cuyos demás datos (datos extendidos, enlaces, propiedades sin campo en Cairn) se omitieron: {count}.',
  'IMPORT_WARNING.other_geometry':
    'Formas distintas de líneas y puntos (polígonos…) omitidas: {count}. Un itinerario es una línea con waypoints; dibuje las áreas como zonas.',
  'IMPORT_WARNING.route':
    'Rutas omitidas: {count}. El archivo tiene tracks, que son lo recorrido; importe las rutas en un archivo aparte para conservarlas.',
};

const ca: Sentences = {
  'IMPORT_WARNING.track_point_time':
    'Hores de punts del track omeses: {count}. Un itinerari desa la posició i l’altitud de cada punt, no quan es va registrar.',
  'IMPORT_WARNING.track_point_extension':
    'Punts del track amb dades de sensors (freqüència cardíaca, cadència, temperatura…) omeses: {count}. Un itinerari només desa posicions i altituds.',
  'IMPORT_WARNING.waypoint_time': 'Hores de waypoints omeses: {count}. Un waypoint desa el nom, el tipus i la descripció, no una hora.',
  'IMPORT_WARNING.waypoint_symbol':
    'Símbols de waypoints omesos: {count}. El tipus del waypoint n’és ara el tipus a Cairn, i un waypoint només en té un.',
  'IMPORT_WARNING.waypoint_moved_onto_track':
    'Waypoints moguts sobre el track: {count}, fins a {distance} m. Els waypoints uneixen els segments del track, així que cadascun fora del track ara és al punt del track més proper.',
  'IMPORT_WARNING.waypoint_same_track_point':
    'Waypoints omesos perquè un waypoint anterior ja marca el mateix punt del track: {count}. Separeu-los al fitxer per conservar-los.',
  'IMPORT_WARNING.style': 'Estils omesos (colors, gruixos, icones): {count}. Els itineraris es dibuixen amb l’estil de mapa de Cairn.',
  'IMPORT_WARNING.feature_properties':
    'Elements o punts amb altres dades (dades esteses, enllaços, propietats sense camp a Cairn) omeses: {count}.',
  'IMPORT_WARNING.other_geometry':
    'Formes que no són línies ni punts (polígons…) omeses: {count}. Un itinerari és una línia amb waypoints; dibuixeu les àrees com a zones.',
  'IMPORT_WARNING.route':
    'Rutes omeses: {count}. El fitxer té tracks, que són el recorregut fet; importeu les rutes en un fitxer a part per conservar-les.',
};

const de: Sentences = {
  'IMPORT_WARNING.track_point_time':
    'Weggelassene Zeitstempel von Trackpunkten: {count}. Eine Route speichert Lage und Höhe jedes Punkts, nicht wann er aufgezeichnet wurde.',
  'IMPORT_WARNING.track_point_extension':
    'Trackpunkte, deren Sensordaten (Herzfrequenz, Trittfrequenz, Temperatur…) weggelassen wurden: {count}. Eine Route speichert nur Lagen und Höhen.',
  'IMPORT_WARNING.waypoint_time':
    'Weggelassene Zeitstempel von Wegpunkten: {count}. Ein Wegpunkt speichert Namen, Art und Beschreibung, keine Zeit.',
  'IMPORT_WARNING.waypoint_symbol':
    'Weggelassene Wegpunkt-Symbole: {count}. Der Typ des Wegpunkts wurde seine Art, und ein Wegpunkt hat nur eine.',
  'IMPORT_WARNING.waypoint_moved_onto_track':
    'Auf den Track verschobene Wegpunkte: {count}, um bis zu {distance} m. Wegpunkte verbinden die Abschnitte des Tracks, daher liegt jeder Wegpunkt abseits des Tracks jetzt auf dem nächsten Trackpunkt.',
  'IMPORT_WARNING.waypoint_same_track_point':
    'Weggelassene Wegpunkte, weil ein früherer Wegpunkt denselben Trackpunkt markiert: {count}. Rücken Sie sie in der Datei auseinander, um sie zu behalten.',
  'IMPORT_WARNING.style': 'Weggelassene Stile (Farben, Linienbreiten, Symbole): {count}. Routen werden im Kartenstil von Cairn gezeichnet.',
  'IMPORT_WARNING.feature_properties':
    'Objekte oder Punkte, deren weitere Daten (erweiterte Daten, Links, Eigenschaften ohne Feld in Cairn) weggelassen wurden: {count}.',
  'IMPORT_WARNING.other_geometry':
    'Weggelassene Formen außer Linien und Punkten (Polygone…): {count}. Eine Route ist eine Linie mit Wegpunkten; zeichnen Sie Flächen als Zonen.',
  'IMPORT_WARNING.route':
    'Weggelassene Routen: {count}. Die Datei enthält Tracks, also das tatsächlich Gegangene; importieren Sie die Routen als eigene Datei, um sie zu behalten.',
};

export const IMPORT_WARNING_MESSAGES = { en, fr, es, ca, de } as const;
