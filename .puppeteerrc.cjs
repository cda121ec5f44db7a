// @asyncapi/cli pulls in puppeteer; this project never drives its bundled browser (browser tests use
// Debian's chromium through playwright-core), and nothing may download at install time.
module.exports = { skipDownload: true };
