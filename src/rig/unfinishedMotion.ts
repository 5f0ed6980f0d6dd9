/**
 * What a motion that did not finish means, in every driver's words. A tumble that did not finish voids its throw;
 * a home has no throw (it runs before the first tumble, after a fault, in `rig check`), but the tumbler may have
 * stopped short of its rest position. Saying "this throw is void" of a home told a user of `rig check` about a throw
 * that never was.
 */
export function unfinishedMotion(verb: string): string {
  return verb === 'tumble' ? 'The motion did not finish, so this throw is void.' : `The ${verb} did not finish, so the tumbler may not be at rest.`;
}
