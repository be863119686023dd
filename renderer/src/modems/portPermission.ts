/**
 * Linux gives serial devices (/dev/ttyUSB*, /dev/ttyACM*) to the `dialout` group; a user outside
 * it gets EACCES on open. The gateway reports that in the modem's statusDetail.
 */
export function isPortPermissionProblem(statusDetail: string | undefined): boolean {
  return statusDetail !== undefined && /permission|EACCES|access denied/i.test(statusDetail);
}

export const dialoutFixCommand = 'sudo usermod -aG dialout $USER';
