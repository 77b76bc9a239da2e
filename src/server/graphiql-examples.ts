/**
 * What GraphiQL opens on: a real first query and a few saved examples, one tab
 * each. GraphiQL keeps the user's own tabs once they exist; these are for a first visit.
 */
const UPCOMING = `# Upcoming events (the default window starts today), with their venue and categories.
# Run it (Ctrl-Enter), then set $after to pageInfo.endCursor for the next page.
# Explore the schema in the Docs panel; other tabs hold more examples.
query UpcomingEvents($after: String) {
  events(first: 10, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes {
      id
      title
      slug
      startsAt
      endsAt
      allDay
      venues { name city }
      categories { name slug }
    }
  }
}
`;

const MONTH = `# One month's events (event-local dates), oldest first.
query MonthEvents($start: String = "2027-03-01", $end: String = "2027-03-31") {
  events(filter: { startDate: $start, endDate: $end }, perPage: 50) {
    totalCount
    nodes { title startDate endDate venues { name } }
  }
}
`;

const BY_SLUG = `# One event by slug (null when there is none, or when you may not read it).
query EventBySlug($slug: String! = "summer-jazz-night") {
  event(slug: $slug) {
    title
    description
    startDate
    endDate
    timezone
    cost
    venues { name address city }
    organizers { name email }
    tags { name }
  }
}
`;

const MUTATION = `# Writes need a signed-in user: add {"Authorization": "Basic <base64 of login:password>"} under Headers.
# A mutation answers a payload (the record; for a create, its list edge too) or a typed error (ValidationError, …).
mutation CreateEvent {
  createEvent(input: { title: "Summer Jazz Night", startDate: "2027-06-05 19:00", endDate: "2027-06-05 22:30", status: DRAFT }) {
    ... on CreateEventSuccess { event { id databaseId title status } }
    ... on Error { code message }
  }
}
`;

const SUBSCRIPTION = `# Live changes (over SSE here; graphql-ws clients use WebSocket on the same /graphql).
# Run it, then create or edit an event in another tab: each change arrives as you may see it.
subscription EventChanges {
  eventChanged { action eventId event { title startDate status } }
}
`;

export const graphiqlExamples = {
  defaultQuery: UPCOMING,
  defaultTabs: [UPCOMING, MONTH, BY_SLUG, MUTATION, SUBSCRIPTION].map((query) => ({ query })),
};
