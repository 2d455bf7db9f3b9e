import { sweepExports } from '@sitewalk/core/services/annotation-exports.service.js';
import type { Handler } from '../registry.js';

/** Hourly: finished snag-list exports past their keeping time leave storage and the table. */
export const annotationsExportsSweep: Handler<'annotations.exports-sweep'> = async () => ({ removed: await sweepExports() });
