// The whole rig at rest, for the preview picture and to check fits by eye (not a printed part).
// x along the pivot (0 at the tower's drive side), y front to back (0 on the camera axis), z up
// (0 at the top of the base bars). Bought parts are drawn as plain blocks.
include <tower.scad>
include <end_frame.scad>
include <platform.scad>
include <servo_mount.scad>
include <bearing_mount.scad>
include <camera_mount.scad>
include <switch_bracket.scad>
include <led_holder.scad>
ASSEMBLY = true;

module bar(from, to) { translate(from) cube(to - from); }

tower_at = [0, -tower_y / 2, platform_z];
e = extrusion;
x_drive = -drive_gap;
x_idler = tower_x + idler_gap;

// 2020 frame
color("silver") {
  for (x = [x_drive - e, x_idler]) {
    bar([x, -e / 2, 0], [x + e, e / 2, post]);                     // posts
    bar([x, -base_y / 2, -e], [x + e, base_y / 2, 0]);            // base bars along y
  }
  for (y = [-led_offset_y, 0, led_offset_y]) bar([x_drive, y - e / 2, -e], [x_idler, y + e / 2, 0]);  // base bars along x
}
// tower, platforms and end frames
color("SteelBlue") translate(tower_at) render() tower();
color("LightCyan", 0.5) {
  translate(tower_at + [0, 0, -acrylic]) platform();
  translate(tower_at + [0, 0, tower_z]) platform();
}
color("DarkSlateGray") {
  translate(tower_at + [-frame_wall, -frame_wall, -acrylic - frame_wall]) end_frame();
  translate(tower_at + [-frame_wall, -frame_wall, tower_z + acrylic + frame_wall]) mirror([0, 0, 1]) end_frame();
}
// drive and idler
color("Orange") {
  translate([x_drive, 0, pivot_z]) servo_mount();
  translate([x_idler, 0, pivot_z]) mirror([1, 0, 0]) bearing_mount();
  translate([x_idler, 0, pivot_z - 80]) mirror([1, 0, 0]) switch_bracket();
}
// camera, lights
color("Orange") translate([tower_x / 2, 0, 0]) camera_mount();
color("black") translate([tower_x / 2 - camera_board / 2, -camera_board / 2, camera_riser + 5]) cube([camera_board, camera_board, camera_lens_above_mount]);
color("Orange") for (y = [-led_offset_y, led_offset_y], x = [tower_x / 4, 3 * tower_x / 4])
  translate([x, y, 0]) rotate([0, 0, y > 0 ? 0 : 180]) led_holder();
