#!/usr/bin/env -S node --conditions=sfc-source --import tsx
// The bin in a clone of the repository: `npx storefront-contract ...` from the sources, as the installed
// tools package runs its compiled dist/cli/storefront-contract.js. Never shipped. (Only a static import
// here: tsx reads the shebang line as code, and a statement after it fails to parse.)
import './clone.ts';
