// End frame (print 2): a sleeve that slides over one end of the tower and clamps the clear
// acrylic platform against it. Four M3 x 10 screws through the sleeve into the tower's side walls.
// Print lip-down, no support.
include <params.scad>

module end_frame() {
  inner = [tower_x + 2 * fit, tower_y + 2 * fit];
  difference() {
    cube(end_frame);
    // tower end and acrylic pocket
    translate([frame_wall - fit, frame_wall - fit, frame_wall]) cube([inner[0], inner[1], end_frame[2]]);
    // window: the camera looks through it, the dice rest on the acrylic behind it
    translate([frame_wall + frame_lip, frame_wall + frame_lip, -1]) cube([tower_x - 2 * frame_lip, tower_y - 2 * frame_lip, frame_wall + 2]);
    // screws into the side walls, at screw_z from the tower's end
    for (x = [-1, end_frame[0] - frame_wall - 1], y = [tower_y / 3, 2 * tower_y / 3])
      translate([x, frame_wall + y, frame_wall + acrylic + screw_z]) rotate([0, 90, 0]) cylinder(d = m3_hole, h = frame_wall + 2, $fn = 12);
  }
}

if (!ASSEMBLY) end_frame();
