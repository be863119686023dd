/**
 * Linux gives serial devices (/dev/ttyUSB*, /dev/ttyACM*) to the `dialout` group; a user outside
 * it gets EACCES on open, which the gateway reports as the status reason 'port-access-denied'.
 * This command puts the user in the group.
 */
export const dialoutFixCommand = 'sudo usermod -aG dialout $USER';
