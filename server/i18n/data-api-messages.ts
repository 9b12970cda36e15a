// Localized sentences of the Data API (GraphQL): request framing, documents that do not parse or do not fit
// the schema, the depth and cost limits, and its fields' own input rules. Merged into the one message table
// (messages.ts); clients branch on `extensions.code`, never on these.

type Sentences = Record<string, string>;

const en: Sentences = {
  'PAYMENT_REQUIRED.intelligence':
    'This field is part of the intelligence tier: the organization needs the intelligence product (ask its owner to add it).',
  'NOT_FOUND.no_suggestion': 'No route idea from here avoids toll and access-restricted ways: try another start, end or target.',
  'VALIDATION_FAILED.suggestion_target': 'Give exactly one target: distance (500 to 100,000 m) or duration (300 to 43,200 s).',
  'VALIDATION_FAILED.isochrone_ranges': 'Give 1 to 10 ranges, each a whole number of seconds from 1 to 14,400.',
  'VALIDATION_FAILED.places_query': 'Give text to search for, a near point, or both.',
  'VALIDATION_FAILED.place_id': 'A place id is node/<number> or way/<number>, as places returns it.',
  'VALIDATION_FAILED.ways_bbox':
    'A ways search box is [west, south, east, north] in degrees, west below east and south below north, each side at most 0.1°.',
  'VALIDATION_FAILED.line_string': 'The geometry must be a GeoJSON LineString.',
  'VALIDATION_FAILED.graphql_variable_at': 'The variable {variable} ({type}) is not valid at {at}: fix that value in "variables".',
  'BAD_REQUEST.graphql_query':
    'Send the GraphQL document as a string in "query": a JSON body {"query": "…"} for POST, or ?query=… for GET.',
  'BAD_REQUEST.graphql_variables': '"variables" must be a JSON object of variable values, or be left out.',
  'BAD_REQUEST.graphql_operation_name': '"operationName" must be a string naming one operation of the document, or be left out.',
  'BAD_REQUEST.graphql_syntax': 'The query is not valid GraphQL at line {line}, column {column}: check the syntax there.',
  'BAD_REQUEST.graphql_pick_operation': 'The document holds several operations: name the one to run in "operationName".',
  'BAD_REQUEST.graphql_unknown_operation': 'The document has no operation named "{name}": send the name of one of its operations.',
  'VALIDATION_FAILED.graphql_operation_type':
    'The Data API answers queries only and has no {operation} type: send "query { … }" (itineraries are changed through the Studio API).',
  'VALIDATION_FAILED.graphql_unknown_field':
    'Cannot query field "{field}" on type {type}: check the name against the schema (GET /graphql/schema.graphql).',
  'VALIDATION_FAILED.graphql_unknown_argument': 'The field {field} has no argument "{argument}": remove it or check its spelling.',
  'VALIDATION_FAILED.graphql_missing_argument': 'The field {field} needs the argument "{argument}" of type {type}.',
  'VALIDATION_FAILED.graphql_needs_selection': 'The field {field} returns an object: list the fields you want from it in braces.',
  'VALIDATION_FAILED.graphql_no_selection': 'The field {field} returns a plain value: remove the braces after it.',
  'VALIDATION_FAILED.graphql_value': 'A value in the query does not fit its type {type}: check it against the schema.',
  'VALIDATION_FAILED.graphql_variable': 'The variable {variable} does not fit its declared type {type}: fix its value in "variables".',
  'VALIDATION_FAILED.graphql_invalid': 'The query does not fit the schema: check it against GET /graphql/schema.graphql.',
  'VALIDATION_FAILED.graphql_depth': 'The query nests {depth} levels deep and at most {limit} are allowed: split it into several queries.',
  'VALIDATION_FAILED.graphql_cost':
    'The query costs {cost} and at most {limit} is allowed (each field counts 1, inside a list {listFactor}): select fewer fields or split the query.',
  'VALIDATION_FAILED.waypoint_count': 'Give 2 to 50 waypoints, each a [longitude, latitude] pair.',
  'VALIDATION_FAILED.bbox': 'A bounding box is [west, south, east, north] in degrees, with west ≤ east and south ≤ north.',
};

const fr: Sentences = {
  'PAYMENT_REQUIRED.intelligence':
    "Ce champ fait partie de l'offre intelligence : l'organisation a besoin du produit intelligence (demandez à son propriétaire de l'ajouter).",
  'NOT_FOUND.no_suggestion':
    "Aucune idée d'itinéraire depuis ce point n'évite les routes à péage et les voies à accès restreint : essayez un autre départ, une autre arrivée ou un autre objectif.",
  'VALIDATION_FAILED.suggestion_target': 'Donnez un seul objectif : distance (500 à 100 000 m) ou durée (300 à 43 200 s).',
  'VALIDATION_FAILED.isochrone_ranges': 'Donnez 1 à 10 plages, chacune un nombre entier de secondes entre 1 et 14 400.',
  'VALIDATION_FAILED.places_query': 'Donnez un texte à chercher, un point proche, ou les deux.',
  'VALIDATION_FAILED.place_id': 'Un identifiant de lieu est node/<nombre> ou way/<nombre>, tel que places le renvoie.',
  'VALIDATION_FAILED.ways_bbox':
    "Une zone de recherche de voies est [ouest, sud, est, nord] en degrés, ouest avant est et sud avant nord, chaque côté d'au plus 0,1°.",
  'VALIDATION_FAILED.line_string': 'La géométrie doit être un LineString GeoJSON.',
  'VALIDATION_FAILED.graphql_variable_at':
    'La variable {variable} ({type}) n\'est pas valide en {at} : corrigez cette valeur dans "variables".',
  'BAD_REQUEST.graphql_query':
    'Envoyez le document GraphQL sous forme de chaîne dans "query" : un corps JSON {"query": "…"} en POST, ou ?query=… en GET.',
  'BAD_REQUEST.graphql_variables': '"variables" doit être un objet JSON de valeurs de variables, ou être omis.',
  'BAD_REQUEST.graphql_operation_name': '"operationName" doit être une chaîne nommant une opération du document, ou être omis.',
  'BAD_REQUEST.graphql_syntax':
    "La requête n'est pas du GraphQL valide à la ligne {line}, colonne {column} : vérifiez la syntaxe à cet endroit.",
  'BAD_REQUEST.graphql_pick_operation': 'Le document contient plusieurs opérations : nommez celle à exécuter dans "operationName".',
  'BAD_REQUEST.graphql_unknown_operation':
    'Le document n\'a aucune opération nommée "{name}" : envoyez le nom de l\'une de ses opérations.',
  'VALIDATION_FAILED.graphql_operation_type':
    'L’API Data ne répond qu’aux requêtes (query) et n’a pas de type {operation} : envoyez "query { … }" (les itinéraires se modifient par l’API Studio).',
  'VALIDATION_FAILED.graphql_unknown_field':
    'Impossible de demander le champ "{field}" du type {type} : vérifiez le nom dans le schéma (GET /graphql/schema.graphql).',
  'VALIDATION_FAILED.graphql_unknown_argument':
    'Le champ {field} n\'a pas d\'argument "{argument}" : retirez-le ou vérifiez son orthographe.',
  'VALIDATION_FAILED.graphql_missing_argument': 'Le champ {field} exige l\'argument "{argument}" de type {type}.',
  'VALIDATION_FAILED.graphql_needs_selection':
    'Le champ {field} renvoie un objet : indiquez entre accolades les champs que vous voulez en obtenir.',
  'VALIDATION_FAILED.graphql_no_selection': 'Le champ {field} renvoie une valeur simple : retirez les accolades qui le suivent.',
  'VALIDATION_FAILED.graphql_value': 'Une valeur de la requête ne correspond pas à son type {type} : vérifiez-la dans le schéma.',
  'VALIDATION_FAILED.graphql_variable':
    'La variable {variable} ne correspond pas à son type déclaré {type} : corrigez sa valeur dans "variables".',
  'VALIDATION_FAILED.graphql_invalid': 'La requête ne correspond pas au schéma : vérifiez-la avec GET /graphql/schema.graphql.',
  'VALIDATION_FAILED.graphql_depth':
    'La requête est imbriquée sur {depth} niveaux et {limit} au plus sont permis : découpez-la en plusieurs requêtes.',
  'VALIDATION_FAILED.graphql_cost':
    'La requête coûte {cost} et {limit} au plus est permis (chaque champ compte 1, dans une liste {listFactor}) : demandez moins de champs ou découpez la requête.',
  'VALIDATION_FAILED.waypoint_count': 'Donnez de 2 à 50 points de passage, chacun une paire [longitude, latitude].',
  'VALIDATION_FAILED.bbox': 'Une emprise est [ouest, sud, est, nord] en degrés, avec ouest ≤ est et sud ≤ nord.',
};

const es: Sentences = {
  'PAYMENT_REQUIRED.intelligence':
    'Este campo forma parte del nivel intelligence: la organización necesita el producto intelligence (pida a su propietario que lo añada).',
  'NOT_FOUND.no_suggestion':
    'Ninguna idea de ruta desde aquí evita las vías de peaje y de acceso restringido: pruebe otro inicio, otro final u otro objetivo.',
  'VALIDATION_FAILED.suggestion_target': 'Indique un solo objetivo: distancia (500 a 100.000 m) o duración (300 a 43.200 s).',
  'VALIDATION_FAILED.isochrone_ranges': 'Indique de 1 a 10 rangos, cada uno un número entero de segundos entre 1 y 14.400.',
  'VALIDATION_FAILED.places_query': 'Indique un texto que buscar, un punto cercano, o ambos.',
  'VALIDATION_FAILED.place_id': 'Un identificador de lugar es node/<número> o way/<número>, tal como lo devuelve places.',
  'VALIDATION_FAILED.ways_bbox':
    'Un área de búsqueda de vías es [oeste, sur, este, norte] en grados, oeste menor que este y sur menor que norte, con cada lado de 0,1° como máximo.',
  'VALIDATION_FAILED.line_string': 'La geometría debe ser un LineString GeoJSON.',
  'VALIDATION_FAILED.graphql_variable_at': 'La variable {variable} ({type}) no es válida en {at}: corrija ese valor en "variables".',
  'BAD_REQUEST.graphql_query':
    'Envíe el documento GraphQL como cadena en "query": un cuerpo JSON {"query": "…"} con POST, o ?query=… con GET.',
  'BAD_REQUEST.graphql_variables': '"variables" debe ser un objeto JSON con los valores de las variables, o omitirse.',
  'BAD_REQUEST.graphql_operation_name': '"operationName" debe ser una cadena que nombre una operación del documento, o omitirse.',
  'BAD_REQUEST.graphql_syntax': 'La consulta no es GraphQL válido en la línea {line}, columna {column}: revise la sintaxis ahí.',
  'BAD_REQUEST.graphql_pick_operation': 'El documento contiene varias operaciones: indique en "operationName" cuál ejecutar.',
  'BAD_REQUEST.graphql_unknown_operation':
    'El documento no tiene ninguna operación llamada "{name}": envíe el nombre de una de sus operaciones.',
  'VALIDATION_FAILED.graphql_operation_type':
    'La API Data solo responde consultas (query) y no tiene tipo {operation}: envíe "query { … }" (los itinerarios se modifican con la API Studio).',
  'VALIDATION_FAILED.graphql_unknown_field':
    'No se puede consultar el campo "{field}" del tipo {type}: compruebe el nombre en el esquema (GET /graphql/schema.graphql).',
  'VALIDATION_FAILED.graphql_unknown_argument': 'El campo {field} no tiene el argumento "{argument}": quítelo o revise cómo se escribe.',
  'VALIDATION_FAILED.graphql_missing_argument': 'El campo {field} necesita el argumento "{argument}" de tipo {type}.',
  'VALIDATION_FAILED.graphql_needs_selection': 'El campo {field} devuelve un objeto: indique entre llaves los campos que quiere de él.',
  'VALIDATION_FAILED.graphql_no_selection': 'El campo {field} devuelve un valor simple: quite las llaves que lo siguen.',
  'VALIDATION_FAILED.graphql_value': 'Un valor de la consulta no corresponde a su tipo {type}: compruébelo en el esquema.',
  'VALIDATION_FAILED.graphql_variable':
    'La variable {variable} no corresponde a su tipo declarado {type}: corrija su valor en "variables".',
  'VALIDATION_FAILED.graphql_invalid': 'La consulta no corresponde al esquema: compruébela con GET /graphql/schema.graphql.',
  'VALIDATION_FAILED.graphql_depth': 'La consulta anida {depth} niveles y se permiten {limit} como máximo: divídala en varias consultas.',
  'VALIDATION_FAILED.graphql_cost':
    'La consulta cuesta {cost} y se permite {limit} como máximo (cada campo cuenta 1, dentro de una lista {listFactor}): pida menos campos o divida la consulta.',
  'VALIDATION_FAILED.waypoint_count': 'Indique de 2 a 50 puntos de paso, cada uno un par [longitud, latitud].',
  'VALIDATION_FAILED.bbox': 'Un recuadro es [oeste, sur, este, norte] en grados, con oeste ≤ este y sur ≤ norte.',
};

const ca: Sentences = {
  'PAYMENT_REQUIRED.intelligence':
    "Aquest camp forma part del nivell intelligence: l'organització necessita el producte intelligence (demaneu al seu propietari que l'afegeixi).",
  'NOT_FOUND.no_suggestion':
    "Cap idea de ruta des d'aquí evita les vies de peatge i d'accés restringit: proveu un altre inici, un altre final o un altre objectiu.",
  'VALIDATION_FAILED.suggestion_target': 'Indiqueu un sol objectiu: distància (500 a 100.000 m) o durada (300 a 43.200 s).',
  'VALIDATION_FAILED.isochrone_ranges': "Indiqueu d'1 a 10 intervals, cadascun un nombre enter de segons entre 1 i 14.400.",
  'VALIDATION_FAILED.places_query': 'Indiqueu un text per cercar, un punt proper, o tots dos.',
  'VALIDATION_FAILED.place_id': 'Un identificador de lloc és node/<número> o way/<número>, tal com el retorna places.',
  'VALIDATION_FAILED.ways_bbox':
    'Una àrea de cerca de vies és [oest, sud, est, nord] en graus, oest menor que est i sud menor que nord, amb cada costat de 0,1° com a màxim.',
  'VALIDATION_FAILED.line_string': 'La geometria ha de ser un LineString GeoJSON.',
  'VALIDATION_FAILED.graphql_variable_at': 'La variable {variable} ({type}) no és vàlida a {at}: corregiu aquest valor a "variables".',
  'BAD_REQUEST.graphql_query':
    'Envieu el document GraphQL com a cadena a "query": un cos JSON {"query": "…"} amb POST, o ?query=… amb GET.',
  'BAD_REQUEST.graphql_variables': '"variables" ha de ser un objecte JSON amb els valors de les variables, o ometre\'s.',
  'BAD_REQUEST.graphql_operation_name': '"operationName" ha de ser una cadena que anomeni una operació del document, o ometre\'s.',
  'BAD_REQUEST.graphql_syntax': 'La consulta no és GraphQL vàlid a la línia {line}, columna {column}: reviseu-ne la sintaxi allà.',
  'BAD_REQUEST.graphql_pick_operation': 'El document conté diverses operacions: indiqueu a "operationName" quina cal executar.',
  'BAD_REQUEST.graphql_unknown_operation':
    'El document no té cap operació anomenada "{name}": envieu el nom d\'una de les seves operacions.',
  'VALIDATION_FAILED.graphql_operation_type':
    'L’API Data només respon consultes (query) i no té tipus {operation}: envieu "query { … }" (els itineraris es modifiquen amb l’API Studio).',
  'VALIDATION_FAILED.graphql_unknown_field':
    'No es pot consultar el camp "{field}" del tipus {type}: comproveu el nom a l\'esquema (GET /graphql/schema.graphql).',
  'VALIDATION_FAILED.graphql_unknown_argument': 'El camp {field} no té l\'argument "{argument}": traieu-lo o reviseu com s\'escriu.',
  'VALIDATION_FAILED.graphql_missing_argument': 'El camp {field} necessita l\'argument "{argument}" de tipus {type}.',
  'VALIDATION_FAILED.graphql_needs_selection': 'El camp {field} retorna un objecte: indiqueu entre claus els camps que en voleu.',
  'VALIDATION_FAILED.graphql_no_selection': 'El camp {field} retorna un valor simple: traieu les claus que el segueixen.',
  'VALIDATION_FAILED.graphql_value': "Un valor de la consulta no correspon al seu tipus {type}: comproveu-lo a l'esquema.",
  'VALIDATION_FAILED.graphql_variable':
    'La variable {variable} no correspon al seu tipus declarat {type}: corregiu-ne el valor a "variables".',
  'VALIDATION_FAILED.graphql_invalid': "La consulta no correspon a l'esquema: comproveu-la amb GET /graphql/schema.graphql.",
  'VALIDATION_FAILED.graphql_depth':
    "La consulta niu {depth} nivells i se'n permeten {limit} com a màxim: dividiu-la en diverses consultes.",
  'VALIDATION_FAILED.graphql_cost':
    "La consulta costa {cost} i es permet {limit} com a màxim (cada camp compta 1, dins d'una llista {listFactor}): demaneu menys camps o dividiu la consulta.",
  'VALIDATION_FAILED.waypoint_count': 'Indiqueu de 2 a 50 punts de pas, cadascun un parell [longitud, latitud].',
  'VALIDATION_FAILED.bbox': 'Un requadre és [oest, sud, est, nord] en graus, amb oest ≤ est i sud ≤ nord.',
};

const de: Sentences = {
  'PAYMENT_REQUIRED.intelligence':
    'Dieses Feld gehört zur Intelligence-Stufe: Die Organisation braucht das Produkt intelligence (bitten Sie ihren Eigentümer, es hinzuzufügen).',
  'NOT_FOUND.no_suggestion':
    'Keine Routenidee von hier meidet Mautstraßen und Wege mit beschränktem Zugang: Versuchen Sie einen anderen Start, ein anderes Ziel oder eine andere Vorgabe.',
  'VALIDATION_FAILED.suggestion_target': 'Geben Sie genau eine Vorgabe an: Distanz (500 bis 100.000 m) oder Dauer (300 bis 43.200 s).',
  'VALIDATION_FAILED.isochrone_ranges': 'Geben Sie 1 bis 10 Bereiche an, jeder eine ganze Zahl von Sekunden zwischen 1 und 14.400.',
  'VALIDATION_FAILED.places_query': 'Geben Sie einen Suchtext, einen nahen Punkt oder beides an.',
  'VALIDATION_FAILED.place_id': 'Eine Orts-ID ist node/<Zahl> oder way/<Zahl>, wie places sie liefert.',
  'VALIDATION_FAILED.ways_bbox':
    'Ein Suchbereich für Wege ist [West, Süd, Ost, Nord] in Grad, West kleiner als Ost und Süd kleiner als Nord, jede Seite höchstens 0,1°.',
  'VALIDATION_FAILED.line_string': 'Die Geometrie muss ein GeoJSON-LineString sein.',
  'VALIDATION_FAILED.graphql_variable_at':
    'Die Variable {variable} ({type}) ist bei {at} ungültig: korrigieren Sie diesen Wert in "variables".',
  'BAD_REQUEST.graphql_query':
    'Senden Sie das GraphQL-Dokument als Zeichenkette in "query": ein JSON-Text {"query": "…"} per POST oder ?query=… per GET.',
  'BAD_REQUEST.graphql_variables': '"variables" muss ein JSON-Objekt mit den Werten der Variablen sein oder fehlen.',
  'BAD_REQUEST.graphql_operation_name': '"operationName" muss eine Zeichenkette sein, die eine Operation des Dokuments nennt, oder fehlen.',
  'BAD_REQUEST.graphql_syntax': 'Die Abfrage ist in Zeile {line}, Spalte {column} kein gültiges GraphQL: prüfen Sie dort die Syntax.',
  'BAD_REQUEST.graphql_pick_operation': 'Das Dokument enthält mehrere Operationen: nennen Sie die auszuführende in "operationName".',
  'BAD_REQUEST.graphql_unknown_operation':
    'Das Dokument hat keine Operation namens "{name}": senden Sie den Namen einer seiner Operationen.',
  'VALIDATION_FAILED.graphql_operation_type':
    'Die Data-API beantwortet nur Abfragen (query) und hat keinen {operation}-Typ: senden Sie "query { … }" (Routen ändern Sie über die Studio-API).',
  'VALIDATION_FAILED.graphql_unknown_field':
    'Das Feld "{field}" des Typs {type} kann nicht abgefragt werden: prüfen Sie den Namen im Schema (GET /graphql/schema.graphql).',
  'VALIDATION_FAILED.graphql_unknown_argument':
    'Das Feld {field} hat kein Argument "{argument}": entfernen Sie es oder prüfen Sie die Schreibweise.',
  'VALIDATION_FAILED.graphql_missing_argument': 'Das Feld {field} braucht das Argument "{argument}" vom Typ {type}.',
  'VALIDATION_FAILED.graphql_needs_selection':
    'Das Feld {field} liefert ein Objekt: geben Sie in geschweiften Klammern die gewünschten Felder an.',
  'VALIDATION_FAILED.graphql_no_selection': 'Das Feld {field} liefert einen einfachen Wert: entfernen Sie die Klammern danach.',
  'VALIDATION_FAILED.graphql_value': 'Ein Wert der Abfrage passt nicht zu seinem Typ {type}: prüfen Sie ihn anhand des Schemas.',
  'VALIDATION_FAILED.graphql_variable':
    'Die Variable {variable} passt nicht zu ihrem deklarierten Typ {type}: korrigieren Sie ihren Wert in "variables".',
  'VALIDATION_FAILED.graphql_invalid': 'Die Abfrage passt nicht zum Schema: prüfen Sie sie anhand von GET /graphql/schema.graphql.',
  'VALIDATION_FAILED.graphql_depth':
    'Die Abfrage ist {depth} Ebenen tief verschachtelt, erlaubt sind höchstens {limit}: teilen Sie sie in mehrere Abfragen auf.',
  'VALIDATION_FAILED.graphql_cost':
    'Die Abfrage kostet {cost}, erlaubt sind höchstens {limit} (jedes Feld zählt 1, in einer Liste {listFactor}): fragen Sie weniger Felder ab oder teilen Sie die Abfrage auf.',
  'VALIDATION_FAILED.waypoint_count': 'Geben Sie 2 bis 50 Wegpunkte an, jeder ein Paar [Länge, Breite].',
  'VALIDATION_FAILED.bbox': 'Ein Begrenzungsrahmen ist [West, Süd, Ost, Nord] in Grad, mit West ≤ Ost und Süd ≤ Nord.',
};

export const DATA_API_MESSAGES = { en, fr, es, ca, de } as const;
