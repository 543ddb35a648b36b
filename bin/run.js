#!/usr/bin/env node
// Entry point of the `yoi` command. Kept tiny so `yoi --version` starts fast.
import { execute } from '@oclif/core';

await execute({ dir: import.meta.url });
