// Lints the committed GraphQL schema (`npm run lint:schema`, CI) against the conventions written in
// docs/graphql.md (Schema conventions), and keeps type escapes out of the TypeScript sources
// (`npm run lint:types`, CI): no `any`, `as never` or `as unknown as` outside generated code and tests.
import graphql from '@graphql-eslint/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  {
    files: ['src/**/*.ts', 'schema/**/*.ts', 'rest-facade/**/*.ts', 'prisma/*.ts'],
    ignores: ['**/generated/**'],
    // No escape hatch: an `eslint-disable` comment in these sources is reported, not obeyed.
    linterOptions: { noInlineConfig: true },
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: 'TSAsExpression > TSNeverKeyword.typeAnnotation', message: '`as never` hides a type error: type the value instead.' },
        {
          selector: 'TSAsExpression[expression.type="TSAsExpression"][expression.typeAnnotation.type="TSUnknownKeyword"]',
          message: '`as unknown as` hides a type error: type the value instead.',
        },
      ],
    },
  },
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
