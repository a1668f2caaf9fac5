# style.gp -- the one style every figure shares (loaded by each
# plots/NAME.gp after it sets its size).
#
# smsim passes: datafile (the CSV), outfile, outformat (png, pdf or svg)
# and the figure's own variables.  A figure may set fig_w and fig_h
# (inches) before loading this file; the default suits a book's text
# column (6 in) and stays readable when printed at that width.
#
# Colours are the Okabe-Ito set, ordered so that neighbours differ in
# lightness; lines also differ by dash and point type, so that a figure
# printed in grayscale still tells its series apart.

if (!exists("fig_w")) fig_w = 6.0
if (!exists("fig_h")) fig_h = 3.6
# Line ends: rounded, except where a span's length is its meaning.
if (!exists("fig_caps")) fig_caps = 'rounded'

if (outformat eq 'pdf') {
    set terminal pdfcairo noenhanced color font 'Sans,8' \
        size fig_w, fig_h linewidth 1.2 @fig_caps
} else {
    if (outformat eq 'svg') {
        set terminal svg noenhanced font 'Sans,11' \
            size fig_w * 100, fig_h * 100 linewidth 1.2 @fig_caps
    } else {
        set terminal pngcairo noenhanced color font 'Sans,11' \
            size fig_w * 140, fig_h * 140 linewidth 1.5 @fig_caps
    }
}
set output outfile

set datafile separator comma
set datafile columnheaders

# Dark to light, and each with its own dash and point.
c_blue = '#0072B2'; c_orange = '#E69F00'; c_green = '#009E73'
c_purple = '#CC79A7'; c_sky = '#56B4E9'; c_red = '#D55E00'
c_yellow = '#F0E442'; c_black = '#000000'; c_grey = '#999999'
c_light = '#D9D9D9'
set linetype 1 lc rgb c_blue lw 2 dt 1 pt 7 ps 0.9
set linetype 2 lc rgb c_red lw 2 dt 2 pt 5 ps 0.9
set linetype 3 lc rgb c_green lw 2 dt 4 pt 9 ps 1.0
set linetype 4 lc rgb c_orange lw 2 dt 3 pt 11 ps 1.0
set linetype 5 lc rgb c_purple lw 2 dt 5 pt 13 ps 1.0
set linetype 6 lc rgb c_sky lw 2 dt 1 pt 6 ps 0.9
set linetype 7 lc rgb c_black lw 2 dt 1 pt 4 ps 0.9
set linetype 8 lc rgb c_grey lw 2 dt 1 pt 8 ps 0.9
set linetype cycle 8

set border 3 lw 1
set tics nomirror out scale 0.5
set grid ytics lc rgb '#E0E0E0' lw 1 dt 1
set key noautotitle nobox samplen 2.5 spacing 1.1
set style fill solid 1.0 border lc rgb '#404040'
