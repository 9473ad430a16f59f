import { CancelledError } from '../../core/errors';
import type { Logger } from '../../core/log';
import { darVettingNeeds, describeDarVettingNeed } from '../../core/network/darVetting';
import { describeNetworkProblem, type NetworkMember } from '../../core/network/model';
import type { DarUploadResult } from '../../core/submit/darUpload';
import type { Prompts } from '../kit/prompts';

/**
 * The line an upload's (or validation's) message ends with when other participants are connected:
 * on which hosts of the uploading participant's parties the DAR's packages must be vetted too.
 * Undefined with one participant, or when nothing is missing; a network that could not be read is said.
 */
export async function darVettingElsewhere(result: DarUploadResult, members: readonly NetworkMember[], prompts: () => Prompts, logger: Logger): Promise<string | undefined> {
  if (members.length < 2) return undefined;
  const packages = result.packages.filter((p) => !p.standardLibrary).map((p) => ({ id: p.id, name: p.name, version: p.version }));
  if (packages.length === 0) return undefined;
  try {
    const { needs, problems } = await prompts().progress(`Checking the other hosts of ${members[0].label}'s parties`, (signal) => darVettingNeeds(packages, members[0], members, { signal }));
    const lines = needs.map(describeDarVettingNeed);
    if (problems.length > 0) lines.push(`(Not every host could be read: ${problems.map(describeNetworkProblem).join('; ')}.)`);
    return lines.length > 0 ? lines.join(' ') : undefined;
  } catch (e) {
    if (e instanceof CancelledError) return undefined;
    logger.warn(`The other hosts of the DAR's parties could not be read: ${e instanceof Error ? e.message : String(e)}`);
    return '(The other hosts of its parties could not be read: see the log.)';
  }
}
