// Servo mount: bolts to the drive-side post (two M5 into T-nuts) and holds the servo
// (DS3218 size) by its flange with four M4 screws, shaft on the pivot axis, pointing at the tower.
// Print standing on the back plate.
include <params.scad>

// Its depth puts the horn against the tower's drive boss: drive_gap = depth + plate + horn + boss.
module servo_mount() {
assert(drive_gap - boss - servo_above_flange - box_plate >= servo_depth, "drive_gap too small for the servo");
// The servo stands lengthwise (z), shaft at the top end of its body, on the pivot axis.
motor_box(depth = drive_gap - boss - servo_above_flange - box_plate, front = [servo_body[0] + 24, servo_holes[1] + 12],
          front_z = -servo_shaft_offset,
          window = [servo_body[0] + 1, servo_body[1] + 1], window_offset = [0, -servo_shaft_offset],
          holes = [for (sy = [-1, 1], sz = [-1, 1]) [sy * servo_holes[0] / 2, -servo_shaft_offset + sz * servo_holes[1] / 2]],
          hole_d = m4_hole);
}

if (!ASSEMBLY) servo_mount();
