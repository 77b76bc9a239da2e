// Lints the committed GraphQL schema (`npm run lint:schema`, CI) against the conventions written in
// README.md (GraphQL → Schema conventions). Only schema/schema.graphql is linted here.
import graphql from '@graphql-eslint/eslint-plugin';

export default [
  {
    files: ['schema/**/*.graphql'],
    languageOptions: {
      parser: graphql.parser,
      parserOptions: { graphQLConfig: { schema: 'schema/schema.graphql' } },
    },
    plugins: { '@graphql-eslint': graphql },
    rules: {
      '@graphql-eslint/naming-convention': [
        'error',
        {
          types: 'PascalCase',
          FieldDefinition: 'camelCase',
          InputValueDefinition: 'camelCase',
          Argument: 'camelCase',
          DirectiveDefinition: 'camelCase',
          EnumValueDefinition: 'UPPER_CASE',
          'FieldDefinition[parent.name.value=Query]': { forbiddenPrefixes: ['get', 'query', 'list'], forbiddenSuffixes: ['Query'] },
          'FieldDefinition[parent.name.value=Mutation]': { forbiddenPrefixes: ['mutation'], forbiddenSuffixes: ['Mutation'] },
          'FieldDefinition[parent.name.value=Subscription]': { forbiddenPrefixes: ['subscription'], forbiddenSuffixes: ['Subscription'] },
        },
      ],
      '@graphql-eslint/require-deprecation-reason': 'error',
      '@graphql-eslint/no-typename-prefix': 'error',
      '@graphql-eslint/no-hashtag-description': 'error',
      '@graphql-eslint/unique-enum-value-names': 'error',
      '@graphql-eslint/no-unreachable-types': 'error',
      '@graphql-eslint/require-description': ['error', { rootField: true }],
      '@graphql-eslint/description-style': 'error',
      '@graphql-eslint/require-nullable-fields-with-oneof': 'error',
      '@graphql-eslint/no-scalar-result-type-on-mutation': 'error',
    },
  },
];
