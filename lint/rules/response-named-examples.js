// Every response body carries at least one *named* example (`examples:`), never a bare `example:`,
// because the mock serves them by name (Prefer: example=...) and the docs show them by name.
export default function ResponseNamedExamples() {
  return {
    MediaType: {
      enter(mediaType, ctx) {
        if (!ctx.location.pointer.includes('/responses/')) return;
        if (mediaType.example !== undefined) {
          ctx.report({ message: 'Use named `examples:` instead of `example:`.', location: ctx.location.child('example') });
        }
        if (!mediaType.examples || Object.keys(mediaType.examples).length === 0) {
          ctx.report({ message: 'Response has no named example (`examples:` with at least one entry).', location: ctx.location });
        }
      },
    },
  };
}
