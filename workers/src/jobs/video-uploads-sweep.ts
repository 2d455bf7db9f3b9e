import { sweepVideoUploads } from '@sitewalk/core/services/video-uploads.service.js';
import type { Handler } from '../registry.js';

/** Hourly: resumable video uploads nobody finished leave the disk and the table (idempotent: a second run finds nothing). */
export const videoUploadsSweep: Handler<'video.uploads-sweep'> = async () => sweepVideoUploads();
