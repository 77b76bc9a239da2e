/**
 * Text of the record pages (event, venue, organizer, series) in the eight REST languages. An
 * unknown key is returned as is; `{{name}}` placeholders are filled from `vars`.
 */
const KEYS = [
  'all_day', 'venue', 'organizers', 'address', 'map', 'map_link', 'phone', 'website', 'email', 'upcoming_events', 'no_upcoming',
  'series_title', 'schedule', 'next_dates', 'all_dates', 'cost', 'categories', 'tags', 'add_to_calendar', 'previous', 'next',
  'page_of', 'later_dates', 'from_today', 'subscribe', 'image_of',
] as const;
export type PageTextKey = (typeof KEYS)[number];
type Table = Record<PageTextKey, string>;

const en: Table = {
  all_day: 'all day', venue: 'Venue', organizers: 'Organizers', address: 'Address', map: 'Map', map_link: 'Show on OpenStreetMap',
  phone: 'Phone', website: 'Website', email: 'Email', upcoming_events: 'Upcoming events', no_upcoming: 'No upcoming events.',
  series_title: 'Recurring event', schedule: 'Schedule', next_dates: 'Next dates', all_dates: 'All dates of this series', cost: 'Cost',
  categories: 'Categories', tags: 'Tags', add_to_calendar: 'Add to calendar (.ics)', previous: 'Previous', next: 'Next',
  page_of: 'Page {{page}} of {{total}}', later_dates: 'Later dates', from_today: 'From today', subscribe: 'Subscribe (iCal)', image_of: 'Image: {{name}}',
};
const fr: Table = {
  all_day: 'toute la journée', venue: 'Lieu', organizers: 'Organisateurs', address: 'Adresse', map: 'Carte', map_link: 'Voir sur OpenStreetMap',
  phone: 'Téléphone', website: 'Site web', email: 'E-mail', upcoming_events: 'Évènements à venir', no_upcoming: 'Aucun évènement à venir.',
  series_title: 'Évènement récurrent', schedule: 'Calendrier', next_dates: 'Prochaines dates', all_dates: 'Toutes les dates de la série', cost: 'Prix',
  categories: 'Catégories', tags: 'Étiquettes', add_to_calendar: 'Ajouter au calendrier (.ics)', previous: 'Précédent', next: 'Suivant',
  page_of: 'Page {{page}} sur {{total}}', later_dates: 'Dates suivantes', from_today: "À partir d'aujourd'hui", subscribe: "S'abonner (iCal)", image_of: 'Image : {{name}}',
};
const de: Table = {
  all_day: 'ganztägig', venue: 'Veranstaltungsort', organizers: 'Veranstalter', address: 'Adresse', map: 'Karte', map_link: 'Auf OpenStreetMap zeigen',
  phone: 'Telefon', website: 'Website', email: 'E-Mail', upcoming_events: 'Kommende Veranstaltungen', no_upcoming: 'Keine kommenden Veranstaltungen.',
  series_title: 'Wiederkehrende Veranstaltung', schedule: 'Termine', next_dates: 'Nächste Termine', all_dates: 'Alle Termine dieser Serie', cost: 'Preis',
  categories: 'Kategorien', tags: 'Schlagwörter', add_to_calendar: 'Zum Kalender hinzufügen (.ics)', previous: 'Zurück', next: 'Weiter',
  page_of: 'Seite {{page}} von {{total}}', later_dates: 'Spätere Termine', from_today: 'Ab heute', subscribe: 'Abonnieren (iCal)', image_of: 'Bild: {{name}}',
};
const es: Table = {
  all_day: 'todo el día', venue: 'Lugar', organizers: 'Organizadores', address: 'Dirección', map: 'Mapa', map_link: 'Ver en OpenStreetMap',
  phone: 'Teléfono', website: 'Sitio web', email: 'Correo electrónico', upcoming_events: 'Próximos eventos', no_upcoming: 'No hay próximos eventos.',
  series_title: 'Evento recurrente', schedule: 'Calendario', next_dates: 'Próximas fechas', all_dates: 'Todas las fechas de la serie', cost: 'Precio',
  categories: 'Categorías', tags: 'Etiquetas', add_to_calendar: 'Añadir al calendario (.ics)', previous: 'Anterior', next: 'Siguiente',
  page_of: 'Página {{page}} de {{total}}', later_dates: 'Fechas posteriores', from_today: 'Desde hoy', subscribe: 'Suscribirse (iCal)', image_of: 'Imagen: {{name}}',
};
const it: Table = {
  all_day: 'tutto il giorno', venue: 'Luogo', organizers: 'Organizzatori', address: 'Indirizzo', map: 'Mappa', map_link: 'Mostra su OpenStreetMap',
  phone: 'Telefono', website: 'Sito web', email: 'Email', upcoming_events: 'Prossimi eventi', no_upcoming: 'Nessun evento in programma.',
  series_title: 'Evento ricorrente', schedule: 'Calendario', next_dates: 'Prossime date', all_dates: 'Tutte le date della serie', cost: 'Prezzo',
  categories: 'Categorie', tags: 'Tag', add_to_calendar: 'Aggiungi al calendario (.ics)', previous: 'Precedente', next: 'Successivo',
  page_of: 'Pagina {{page}} di {{total}}', later_dates: 'Date successive', from_today: 'Da oggi', subscribe: 'Iscriviti (iCal)', image_of: 'Immagine: {{name}}',
};
const nl: Table = {
  all_day: 'hele dag', venue: 'Locatie', organizers: 'Organisatoren', address: 'Adres', map: 'Kaart', map_link: 'Toon op OpenStreetMap',
  phone: 'Telefoon', website: 'Website', email: 'E-mail', upcoming_events: 'Komende evenementen', no_upcoming: 'Geen komende evenementen.',
  series_title: 'Terugkerend evenement', schedule: 'Schema', next_dates: 'Volgende data', all_dates: 'Alle data van deze reeks', cost: 'Prijs',
  categories: 'Categorieën', tags: 'Tags', add_to_calendar: 'Toevoegen aan agenda (.ics)', previous: 'Vorige', next: 'Volgende',
  page_of: 'Pagina {{page}} van {{total}}', later_dates: 'Latere data', from_today: 'Vanaf vandaag', subscribe: 'Abonneren (iCal)', image_of: 'Afbeelding: {{name}}',
};
const pt: Table = {
  all_day: 'o dia todo', venue: 'Local', organizers: 'Organizadores', address: 'Morada', map: 'Mapa', map_link: 'Ver no OpenStreetMap',
  phone: 'Telefone', website: 'Site', email: 'E-mail', upcoming_events: 'Próximos eventos', no_upcoming: 'Não há próximos eventos.',
  series_title: 'Evento recorrente', schedule: 'Calendário', next_dates: 'Próximas datas', all_dates: 'Todas as datas da série', cost: 'Preço',
  categories: 'Categorias', tags: 'Etiquetas', add_to_calendar: 'Adicionar ao calendário (.ics)', previous: 'Anterior', next: 'Seguinte',
  page_of: 'Página {{page}} de {{total}}', later_dates: 'Datas seguintes', from_today: 'A partir de hoje', subscribe: 'Subscrever (iCal)', image_of: 'Imagem: {{name}}',
};
const pl: Table = {
  all_day: 'cały dzień', venue: 'Miejsce', organizers: 'Organizatorzy', address: 'Adres', map: 'Mapa', map_link: 'Pokaż w OpenStreetMap',
  phone: 'Telefon', website: 'Strona internetowa', email: 'E-mail', upcoming_events: 'Nadchodzące wydarzenia', no_upcoming: 'Brak nadchodzących wydarzeń.',
  series_title: 'Wydarzenie cykliczne', schedule: 'Harmonogram', next_dates: 'Najbliższe terminy', all_dates: 'Wszystkie terminy cyklu', cost: 'Cena',
  categories: 'Kategorie', tags: 'Tagi', add_to_calendar: 'Dodaj do kalendarza (.ics)', previous: 'Poprzednia', next: 'Następna',
  page_of: 'Strona {{page}} z {{total}}', later_dates: 'Późniejsze terminy', from_today: 'Od dziś', subscribe: 'Subskrybuj (iCal)', image_of: 'Obraz: {{name}}',
};

const TABLES: Record<string, Table> = { en, fr, de, es, it, nl, pt, pl };

export type PageText = (key: PageTextKey, vars?: Record<string, string | number>) => string;

/** The text function of a language (English for any other). */
export function pageText(lang: string): PageText {
  const table = TABLES[lang] ?? en;
  return (key, vars) => table[key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars?.[name] ?? ''));
}
