#!/usr/bin/env node
// The CLI is built from TypeScript by `npm install` (root `prepare`); see README.
import '../dist/cli.js';
