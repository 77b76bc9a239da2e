/**
 * The documents a Relay app of the calendar would write, as relay-compiler reads them (`graphql`
 * tagged templates; test/relay/relay.config.json). Never imported: relay.test.ts runs the artifacts
 * relay-compiler generates from them (test/relay/__generated__/, by test/relay/compile.ts).
 */
import { graphql } from 'relay-runtime';

// A calendar page: the upcoming events, a list paged both ways (usePaginationFragment's shape).
export const pageQuery = graphql`
  query CalendarPageQuery($first: Int, $after: String, $last: Int, $before: String) {
    ...EventList_query @arguments(first: $first, after: $after, last: $last, before: $before)
  }
`;

export const listFragment = graphql`
  fragment EventList_query on Query
  @argumentDefinitions(first: { type: "Int" }, after: { type: "String" }, last: { type: "Int" }, before: { type: "String" })
  @refetchable(queryName: "EventListPaginationQuery") {
    events(first: $first, after: $after, last: $last, before: $before) @connection(key: "EventList_events") {
      __id
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      edges {
        cursor
        node {
          id
          ...EventRow_event
        }
      }
    }
  }
`;

// One row of the list, refetchable on its own through `node(id:)`.
export const rowFragment = graphql`
  fragment EventRow_event on Event @refetchable(queryName: "EventRowRefetchQuery") {
    id
    title
    startsAt
    venues {
      id
      name
    }
  }
`;

// A create adds its edge to the lists the caller names; a failure is a typed error, never an edge.
export const createMutation = graphql`
  mutation CreateEventMutation($input: CreateEventInput!, $connections: [ID!]!) {
    createEvent(input: $input) {
      __typename
      ... on CreateEventSuccess {
        eventEdge @appendEdge(connections: $connections) {
          cursor
          node {
            id
            ...EventRow_event
          }
        }
      }
      ... on Error {
        code
        message
      }
      ... on ValidationError {
        field
      }
    }
  }
`;

// A delete takes the record's edge out of the lists the caller names.
export const deleteMutation = graphql`
  mutation DeleteEventMutation($id: ID!, $connections: [ID!]!) {
    deleteEvent(id: $id) {
      __typename
      ... on DeleteEventSuccess {
        deletedId @deleteEdge(connections: $connections)
      }
      ... on Error {
        code
        message
      }
    }
  }
`;

// The change feed: updates merge into the store by ID; a deletion removes the record.
export const changesSubscription = graphql`
  subscription EventChangesSubscription {
    eventChanged {
      action
      eventId
      deletedId @deleteRecord
      event {
        id
        ...EventRow_event
      }
    }
  }
`;

// Resuming: every change carries its cursor; subscribing again `after` it misses nothing.
export const resumableSubscription = graphql`
  subscription EventResumeSubscription($after: String) {
    eventChanged(after: $after) {
      cursor
      action
      event {
        id
        title
      }
    }
  }
`;
