// A local ESLint rule: SQL (Kysely, @academy/db's `Sql` and its helpers, raw SQL strings) is written
// only in a feature's `*.store.ts` and in migrations, so a reader finds every query of a feature in
// one file. eslint.config.js applies it to the services that follow the feature anatomy.

const SQL_LIBRARIES = new Set(['kysely', 'pg', 'postgres', '@mikro-orm/knex']);
const SQL_HELPERS = new Set(['Sql', 'numberedPlaceholders', 'sqlLiteral', 'beginWith', 'commitWith']);
// Lower- or upper-case SQL at the start of a string: a sentence ("Select one from…") is not matched.
const SQL_TEXT = [
  /^\s*(select\s[\s\S]*\sfrom\s|insert\s+into\s|update\s+\w+(\s+\w+)?\s+set\s|delete\s+from\s|with\s+(recursive\s+)?\w+\s+as\s*(materialized\s*)?\()/,
  /^\s*(SELECT\s[\s\S]*\sFROM\s|INSERT\s+INTO\s|UPDATE\s+\w+(\s+\w+)?\s+SET\s|DELETE\s+FROM\s|WITH\s+(RECURSIVE\s+)?\w+\s+AS\s*(MATERIALIZED\s*)?\()/,
];

const isStoreOrMigration = (filename) => /\.store\.ts$/.test(filename) || /[\\/]migrations[\\/]/.test(filename);

/** @type {import('eslint').Rule.RuleModule} */
export const sqlInStore = {
  meta: {
    type: 'problem',
    docs: { description: 'SQL only in *.store.ts and migrations' },
    messages: {
      library: "'{{name}}' writes SQL: only a feature's *.store.ts (or a migration) imports it.",
      helper: "'{{name}}' runs SQL: only a feature's *.store.ts (or a migration) uses it.",
      text: "SQL text belongs in the feature's *.store.ts (or a migration).",
    },
    schema: [],
  },
  create(context) {
    if (isStoreOrMigration(context.filename)) return {};
    const checkText = (node, text) => {
      if (SQL_TEXT.some((pattern) => pattern.test(text))) context.report({ node, messageId: 'text' });
    };
    return {
      ImportDeclaration(node) {
        const source = node.source.value;
        if (SQL_LIBRARIES.has(source)) context.report({ node, messageId: 'library', data: { name: source } });
        if (source === '@academy/db') {
          for (const specifier of node.specifiers) {
            const name = specifier.type === 'ImportSpecifier' ? specifier.imported.name : null;
            if (name && SQL_HELPERS.has(name)) context.report({ node: specifier, messageId: 'helper', data: { name } });
          }
        }
      },
      Literal(node) {
        if (typeof node.value === 'string') checkText(node, node.value);
      },
      TemplateLiteral(node) {
        checkText(node, node.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join('?'));
      },
    };
  },
};

export default { rules: { 'sql-in-store': sqlInStore } };
