// Camera mount: stands on the base's middle bar (two M5 into T-nuts), square under the tower,
// and holds a UVC board camera looking up through the platform. Its riser is computed from
// the preset so the lens sits `camera_distance` below the platform (see the camera guide).
include <params.scad>

module camera_mount() {
  plate = 5;
  column = 34;
  difference() {
    union() {
      translate([-35, -extrusion / 2, 0]) cube([70, extrusion, plate]);           // foot on the bar
      translate([-column / 2, -column / 2, 0]) cube([column, column, camera_riser + plate]);  // riser
      translate([-(camera_board + 6) / 2, -(camera_board + 6) / 2, camera_riser]) cube([camera_board + 6, camera_board + 6, plate]);  // board seat
    }
    for (x = [-27, 27]) translate([x, 0, -1]) cylinder(d = m5_hole, h = plate + 2, $fn = 16);
    translate([-column / 2 + 3, -column / 2 + 3, -1]) cube([column - 6, column - 6, camera_riser]);   // hollow riser
    translate([0, 0, camera_riser - 1]) cylinder(d = 16, h = plate + 2);                                // the board's USB lead
    for (x = [-1, 1], y = [-1, 1]) translate([x * camera_board_holes / 2, y * camera_board_holes / 2, camera_riser - 1]) cylinder(d = m2_pilot, h = plate + 2, $fn = 12);
    translate([-column / 2 - 1, -4, plate]) cube([4, 8, 12]);                                        // lead exit
  }
}

if (!ASSEMBLY) camera_mount();
