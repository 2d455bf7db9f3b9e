import type { HandlerTable } from '../registry.js';
import { mailSend } from './mail-send.js';
import { mailVerify } from './mail-verify.js';
import { notifyDispatch } from './notify-dispatch.js';
import { planExpiryScan } from './plan-expiry-scan.js';
import { sheetFromPdf } from './sheet-from-pdf.js';
import { sheetPlan } from './sheet-plan.js';
import { roomTiles } from './room-tiles.js';
import { videoProcess } from './video-process.js';
import { videoGeneratePly } from './video-generate-ply.js';
import { videoProjectPoints } from './video-project-points.js';
import { videoConfirmProjection } from './video-confirm-projection.js';
import { annotationsExport } from './annotations-export.js';
import { annotationsRemindOverdue } from './annotations-remind-overdue.js';
import { annotationsExportsSweep } from './annotations-exports-sweep.js';
import { adskSync } from './adsk-sync.js';
import { usersPurgeInvited } from './users-purge-invited.js';
import { invoiceGenerate } from './invoice-generate.js';
import { videoUploadsSweep } from './video-uploads-sweep.js';

/**
 * One handler per job of the registry in proto/src/jobs.ts. Each is
 * idempotent: running it twice for the same payload has the effect of once.
 * The workers process checks at start that every job of the queues it serves
 * is here, and refuses to start otherwise.
 */
export const handlers: HandlerTable = {
  'mail.send': mailSend,
  'mail.verify': mailVerify,
  'notify.dispatch': notifyDispatch,
  'plan.expiry-scan': planExpiryScan,
  'sheet.from-pdf': sheetFromPdf,
  'sheet.plan': sheetPlan,
  'room.tiles': roomTiles,
  'video.process': videoProcess,
  'video.generate-ply': videoGeneratePly,
  'video.project-points': videoProjectPoints,
  'video.confirm-projection': videoConfirmProjection,
  'annotations.export': annotationsExport,
  'annotations.remind-overdue': annotationsRemindOverdue,
  'annotations.exports-sweep': annotationsExportsSweep,
  'adsk.sync': adskSync,
  'users.purge-invited': usersPurgeInvited,
  'invoice.generate': invoiceGenerate,
  'video.uploads-sweep': videoUploadsSweep,
};
