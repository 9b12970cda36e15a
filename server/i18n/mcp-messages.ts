// Localized sentences of the MCP server: why a tool that writes is refused while reads go on (the acting member
// of the connection), an unknown tool, and an itinerary read as published before it was. Merged into the one
// message table (messages.ts); clients branch on `extensions.code`, never on these.

type Sentences = Record<string, string>;

const en: Sentences = {
  'FORBIDDEN.mcp_no_member':
    'A write needs X-User-Id (beside the key pair) naming a member with role owner, admin or contributor; none was sent, so this connection only reads.',
  'BAD_REQUEST.mcp_user_id':
    'A write needs X-User-Id naming a member with role owner, admin or contributor; this X-User-Id is not a uuid: send the member id as Cairn returns it.',
  'FORBIDDEN.mcp_not_member':
    'A write needs X-User-Id naming a member with role owner, admin or contributor; this X-User-Id names no member of the organization.',
  'FORBIDDEN.mcp_viewer': 'A write needs X-User-Id of a member with role owner, admin or contributor; this member is a viewer.',
  'FORBIDDEN.mcp_consent_viewer':
    'You connected as a viewer, who only reads: a write needs a member with role owner, admin or contributor (an owner or admin can change your role).',
  'NOT_FOUND.tool': 'There is no tool named "{name}": use one of {tools}.',
  'NOT_FOUND.not_published': 'This itinerary is not published: ask for version draft, or publish it first.',
};

const fr: Sentences = {
  'FORBIDDEN.mcp_no_member':
    "Une écriture exige X-User-Id (en plus de la paire de clés) désignant un membre propriétaire, admin ou contributeur ; aucun n'a été envoyé, cette connexion ne fait donc que lire.",
  'BAD_REQUEST.mcp_user_id':
    "Une écriture exige X-User-Id désignant un membre propriétaire, admin ou contributeur ; ce X-User-Id n'est pas un uuid : envoyez l'id du membre tel que Cairn le renvoie.",
  'FORBIDDEN.mcp_not_member':
    "Une écriture exige X-User-Id désignant un membre propriétaire, admin ou contributeur ; ce X-User-Id ne désigne aucun membre de l'organisation.",
  'FORBIDDEN.mcp_viewer': "Une écriture exige X-User-Id d'un membre propriétaire, admin ou contributeur ; ce membre a le rôle lecteur.",
  'FORBIDDEN.mcp_consent_viewer':
    'Vous êtes connecté en tant que lecteur, qui ne fait que lire : une écriture exige un membre propriétaire, admin ou contributeur (un propriétaire ou un admin peut changer votre rôle).',
  'NOT_FOUND.tool': "Il n'existe pas d'outil nommé « {name} » : utilisez l'un de {tools}.",
  'NOT_FOUND.not_published': "Cet itinéraire n'est pas publié : demandez la version draft, ou publiez-le d'abord.",
};

const es: Sentences = {
  'FORBIDDEN.mcp_no_member':
    'Una escritura requiere X-User-Id (además del par de claves) con un miembro propietario, administrador o colaborador; no se envió ninguno, así que esta conexión solo lee.',
  'BAD_REQUEST.mcp_user_id':
    'Una escritura requiere X-User-Id con un miembro propietario, administrador o colaborador; este X-User-Id no es un uuid: envíe el id del miembro tal como lo devuelve Cairn.',
  'FORBIDDEN.mcp_not_member':
    'Una escritura requiere X-User-Id con un miembro propietario, administrador o colaborador; este X-User-Id no designa a ningún miembro de la organización.',
  'FORBIDDEN.mcp_viewer':
    'Una escritura requiere X-User-Id de un miembro propietario, administrador o colaborador; este miembro tiene el rol de lector.',
  'FORBIDDEN.mcp_consent_viewer':
    'Se conectó como lector, que solo lee: una escritura requiere un miembro propietario, administrador o colaborador (un propietario o administrador puede cambiar su rol).',
  'NOT_FOUND.tool': 'No hay ninguna herramienta llamada «{name}»: use una de {tools}.',
  'NOT_FOUND.not_published': 'Este itinerario no está publicado: pida la versión draft, o publíquelo primero.',
};

const ca: Sentences = {
  'FORBIDDEN.mcp_no_member':
    "Una escriptura requereix X-User-Id (a més del parell de claus) amb un membre propietari, administrador o col·laborador; no se n'ha enviat cap, així que aquesta connexió només llegeix.",
  'BAD_REQUEST.mcp_user_id':
    "Una escriptura requereix X-User-Id amb un membre propietari, administrador o col·laborador; aquest X-User-Id no és un uuid: envieu l'id del membre tal com el retorna Cairn.",
  'FORBIDDEN.mcp_not_member':
    "Una escriptura requereix X-User-Id amb un membre propietari, administrador o col·laborador; aquest X-User-Id no designa cap membre de l'organització.",
  'FORBIDDEN.mcp_viewer':
    "Una escriptura requereix X-User-Id d'un membre propietari, administrador o col·laborador; aquest membre té el rol de lector.",
  'FORBIDDEN.mcp_consent_viewer':
    'Us heu connectat com a lector, que només llegeix: una escriptura requereix un membre propietari, administrador o col·laborador (un propietari o administrador pot canviar el vostre rol).',
  'NOT_FOUND.tool': "No hi ha cap eina anomenada «{name}»: feu servir una d'aquestes: {tools}.",
  'NOT_FOUND.not_published': 'Aquest itinerari no està publicat: demaneu la versió draft, o publiqueu-lo primer.',
};

const de: Sentences = {
  'FORBIDDEN.mcp_no_member':
    'Ein Schreibzugriff braucht X-User-Id (neben dem Schlüsselpaar) mit einem Mitglied der Rolle Eigentümer, Admin oder Mitwirkender; keine wurde gesendet, diese Verbindung liest also nur.',
  'BAD_REQUEST.mcp_user_id':
    'Ein Schreibzugriff braucht X-User-Id mit einem Mitglied der Rolle Eigentümer, Admin oder Mitwirkender; diese X-User-Id ist keine UUID: senden Sie die Mitglieds-ID so, wie Cairn sie liefert.',
  'FORBIDDEN.mcp_not_member':
    'Ein Schreibzugriff braucht X-User-Id mit einem Mitglied der Rolle Eigentümer, Admin oder Mitwirkender; diese X-User-Id bezeichnet kein Mitglied der Organisation.',
  'FORBIDDEN.mcp_viewer':
    'Ein Schreibzugriff braucht X-User-Id eines Mitglieds mit der Rolle Eigentümer, Admin oder Mitwirkender; dieses Mitglied ist Betrachter.',
  'FORBIDDEN.mcp_consent_viewer':
    'Sie sind als Betrachter verbunden und können nur lesen: ein Schreibzugriff braucht ein Mitglied mit der Rolle Eigentümer, Admin oder Mitwirkender (ein Eigentümer oder Admin kann Ihre Rolle ändern).',
  'NOT_FOUND.tool': 'Es gibt kein Werkzeug namens „{name}“: verwenden Sie eines von {tools}.',
  'NOT_FOUND.not_published':
    'Diese Route ist nicht veröffentlicht: fragen Sie nach der Version draft, oder veröffentlichen Sie sie zuerst.',
};

export const MCP_MESSAGES = { en, fr, es, ca, de } as const;
