// Shared parameters of every part of the reference flip tower.
// The rig's numbers come from hardware/presets.json through presets.scad (generated);
// pick a preset with:  openscad -D 'preset="xwing-d8"' -o tower.stl tower.scad
// Bought parts (servo, bearing, switches, camera board) are measured here: check yours.
include <presets.scad>

preset = "d6-16mm";
// assembly.scad sets this so the parts it includes do not draw themselves.
ASSEMBLY = false;
$fn = 48;

function _row(name) = let(i = search([name], PRESETS, 1, 0)[0]) is_num(i) ? PRESETS[i][1] : undef;
function P(key) =
  let(row = _row(preset))
  assert(!is_undef(row), str("unknown preset \"", preset, "\"; presets: ", PRESET_NAMES))
  let(j = search([key], row, 1, 0)[0])
  assert(is_num(j), str("preset \"", preset, "\" has no parameter ", key))
  row[j][1];

// --- from the preset (mm) ---
die_type = P("die_type");
die_size = P("die_size");
die_max = P("die_max");
channels = P("channels");
channel_width = P("channel_width");
channel_depth = P("channel_depth");
drop_height = P("drop_height");
wall = P("wall");
side_wall = P("side_wall");
baffles = P("baffles");
baffle_reach = P("baffle_reach");
acrylic = P("acrylic");
frame_lip = P("frame_lip");
frame_sleeve = P("frame_sleeve");
tower_x = P("tower_x");
tower_y = P("tower_y");
tower_z = P("tower_z");
end_frame = [P("end_frame_x"), P("end_frame_y"), P("end_frame_z")];
camera_distance = P("camera_distance");
camera_riser = P("camera_riser");
camera_lens_above_mount = P("camera_lens_above_mount");
pivot_z = P("pivot_z");
platform_z = P("platform_z");
post = P("post");
extrusion = P("extrusion");
led_offset_y = P("led_offset_y");
led_z = P("led_z");
led_aim = P("led_aim");
drive_gap = P("drive_gap");
idler_gap = P("idler_gap");
post_span = P("post_span");
base_y = P("base_y");
base_x = P("base_x");

// --- printing and fasteners ---
frame_wall = 2.4;     // end frames, matches rigDesign.ts FRAME_WALL_MM
fit = 0.2;            // clearance per side where printed parts slide over each other
m2_pilot = 1.8;
m3_hole = 3.4;
m3_pilot = 2.6;       // M3 self-tapping into plastic
m4_hole = 4.4;
m5_hole = 5.5;        // M5 screw into a 2020 T-nut
screw_z = frame_sleeve / 2;  // end-frame screws: this far from each tower end

// --- bought parts (measure yours) ---
servo_body = [20.0, 40.5];      // DS3218: width (y) x length (z) through the plate
servo_holes = [10.0, 49.5];     // its flange screw spacing (y, z), M4
servo_shaft_offset = 10.25;     // shaft from the body's centre along its length
servo_depth = 28;               // body below the flange
servo_above_flange = 15;        // shaft and horn above the flange
boss = 7;                       // the tower's pivot bosses stand this far out
horn_bolt_circle = 14;          // round aluminium horn: 4 x M3 on this diameter
horn_d = 25;                    // horn disc diameter
nema = 42.3; nema_holes = 31; nema_boss = 22.5; nema_depth = 40; nema_shaft = 5;
bearing_od = 22; bearing_w = 7; axle_d = 8;   // 608 bearing, M8 axle bolt
switch_len = 20; switch_thick = 6.4; switch_height = 10; switch_hole_pitch = 9.5;  // lever microswitch (KW12 class)
led_strip_w = 10;               // 12 V strip width
camera_board = 38; camera_board_holes = 32;   // UVC board camera with an M12 lens (check the hole pitch)

// Post-mounted boxes: back plate on the post, front plate carrying the motor.
box_plate = 5;

// A plate that bolts flat onto a 2020 post's face with two M5 screws into T-nuts,
// `h` tall (z), centred on the origin, standing `t` thick in +x.
module post_plate(h, w = 40, t = box_plate, holes = 2) {
  difference() {
    translate([0, -w / 2, -h / 2]) cube([t, w, h]);
    for (z = holes == 1 ? [0] : [-(h / 2 - 8), h / 2 - 8])
      translate([-1, 0, z]) rotate([0, 90, 0]) cylinder(d = m5_hole, h = t + 2, $fn = 16);
  }
}

// A box standing off a post: back plate on the post, front plate `depth` away in +x with a
// window `window` (y, z) and screw holes `holes` (list of [y, z]); the motor shaft is on the x axis.
// `front_z` shifts the box up or down when the motor's shaft is off its body's centre.
module motor_box(depth, front, window, holes, hole_d, window_offset = [0, 0], round_window = false, front_z = 0) {
  h = front[1] + 40;
  difference() {
    union() {
      translate([0, 0, front_z]) post_plate(h, w = front[0]);
      translate([depth, -front[0] / 2, front_z - front[1] / 2]) cube([box_plate, front[0], front[1]]);
      for (y = [-front[0] / 2, front[0] / 2 - box_plate])
        translate([0, y, front_z - front[1] / 2]) cube([depth + box_plate, box_plate, front[1]]);
    }
    translate([depth - 1, window_offset[0], window_offset[1]])
      if (round_window) rotate([0, 90, 0]) cylinder(d = window[0], h = box_plate + 2);
      else translate([0, -window[0] / 2, -window[1] / 2]) cube([box_plate + 2, window[0], window[1]]);
    for (p = holes) translate([depth - 1, p[0], p[1]]) rotate([0, 90, 0]) cylinder(d = hole_d, h = box_plate + 2, $fn = 16);
  }
}
