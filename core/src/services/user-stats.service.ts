import type { UserStats } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { userStatsCounts } from '../repositories/user-stats.repository.js';

/**
 * What a user has: the projects they own or belong to (the same set GET
 * /projects lists), and the visits, sheets and open snags in those projects.
 * Read by the profile load and the dashboard.
 */
export const userStats = (userId: number): Promise<UserStats> => userStatsCounts(db(), userId);
