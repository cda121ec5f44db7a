// Redocly starter convention: a component schema's file name = component name = title.
// A schema defined in its own file under components/schemas/ must have title equal to the file name.
import path from 'node:path';

export default function SchemaTitleMatchesFile() {
  return {
    Schema: {
      enter(schema, ctx) {
        const source = ctx.location.source.absoluteRef;
        if (!source.includes(`${path.sep}components${path.sep}schemas${path.sep}`)) return;
        if (ctx.location.pointer !== '#/') return; // only the file's root schema
        const expected = path.basename(source).replace(/\.ya?ml$/, '');
        if (schema.title !== expected) {
          ctx.report({
            message: `Schema title ${JSON.stringify(schema.title)} must equal its file name "${expected}".`,
            location: ctx.location.child('title'),
          });
        }
      },
    },
  };
}
