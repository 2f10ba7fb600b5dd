package dev.quickstore.cli.oo7;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.awt.Rectangle;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.NumberFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.labels.StandardCategoryToolTipGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

/**
 * Grouped bar charts of the OO7 report as SVG: JFreeChart lays the chart out and draws it, JFreeSVG records the
 * drawing as one {@code <svg>} element ({@link #svg}), inlined by {@link Oo7HtmlReport}. One bar per series (a
 * system, or a paper's system) in each category (a phase or an operation), the value printed on the bar, a
 * logarithmic value axis with a labelled tick per decade for quantities that span decades (times), a legend
 * under the plot. Each series keeps its colour in every chart of a report ({@link Palette}).
 */
final class Oo7Charts {
    static {
        // no display is needed: JFreeChart only measures text with AWT fonts and draws into JFreeSVG's Graphics2D
        System.setProperty("java.awt.headless", "true");
    }

    private Oo7Charts() {}

    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 15);
    private static final Font SUBTITLE = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final Font AXIS_LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font TICK = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final Font VALUE = new Font(Font.SANS_SERIF, Font.PLAIN, 9);
    private static final Font LEGEND = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final Color GRID = new Color(0xd0d0d0);
    private static final Color MINOR_GRID = new Color(0xececec);
    private static final Color TEXT = new Color(0x222222);

    /**
     * Colours by series name, stable over the charts of one report: the measured systems take a colour-blind
     * safe palette (Okabe and Ito 2008, then Tableau's, the pale yellow last) in the order they are first named, the paper's series
     * shades of grey.
     */
    static final class Palette {
        private static final List<Color> SYSTEMS = List.of(
                new Color(0x0072B2),
                new Color(0xE69F00),
                new Color(0x009E73),
                new Color(0xCC79A7),
                new Color(0x56B4E9),
                new Color(0xD55E00),
                new Color(0x8C564B),
                new Color(0x9467BD),
                new Color(0x17BECF),
                new Color(0xBCBD22),
                new Color(0x2CA02C),
                new Color(0xF0E442)); // yellow last: faint on white
        private static final List<Color> PAPER = List.of(new Color(0x4D4D4D), new Color(0x8C8C8C), new Color(0xBDBDBD));
        private final Map<String, Color> assigned = new LinkedHashMap<>();
        private int systems;
        private int paper;

        Color of(String series) {
            return assigned.computeIfAbsent(series, s -> {
                if (s.startsWith("paper: ")) {
                    return PAPER.get(paper++ % PAPER.size());
                }
                return SYSTEMS.get(systems++ % SYSTEMS.size());
            });
        }
    }

    /**
     * A bar chart of {@code values} (series, then category, then value; a missing value draws no bar) as an
     * {@code <svg>} element {@code width} by {@code height} with a view box, so that it scales with the page.
     *
     * @param id unique in the page: the element's id and the prefix of its clip paths
     * @param log a base-10 logarithmic value axis (values must be positive; others are left out)
     * @param format the values printed on the bars
     */
    static String svg(
            String id,
            String title,
            String subtitle,
            String valueAxisLabel,
            Map<String, Map<String, Double>> values,
            List<String> categories,
            boolean log,
            NumberFormat format,
            Palette palette,
            int width,
            int height) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (Map.Entry<String, Map<String, Double>> s : values.entrySet()) {
            for (String c : categories) {
                Double v = s.getValue().get(c);
                if (v == null || Double.isNaN(v) || (log && v <= 0)) {
                    data.addValue(null, s.getKey(), c);
                    continue;
                }
                data.addValue(v, s.getKey(), c);
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        if (max == 0) {
            max = 1;
            min = Math.min(min, 1);
        }
        ValueAxis axis;
        double base;
        if (log) {
            // whole decades, with room above the tallest bar for its printed value
            double lo = Math.pow(10, Math.floor(Math.log10(min) - 0.25));
            double hi = Math.pow(10, Math.ceil(Math.log10(max) + 0.45));
            LogAxis a = new LogAxis(valueAxisLabel);
            a.setBase(10);
            a.setSmallestValue(lo);
            a.setAutoTickUnitSelection(false);
            // a labelled tick per decade, minor ticks at 2..9 times it (LogAxis spaces them linearly in value)
            a.setTickUnit(new NumberTickUnit(1, decimal("0"), 9), false, false);
            a.setNumberFormatOverride(decimal("#,##0.######"));
            a.setMinorTickMarksVisible(true);
            // a hair beyond the decades: LogAxis drops an end tick that rounding puts just outside the range
            a.setRange(lo / 1.0001, hi * 1.0001);
            axis = a;
            base = lo;
        } else {
            NumberAxis a = new NumberAxis(valueAxisLabel);
            a.setUpperMargin(0.15);
            a.setNumberFormatOverride(decimal("#,##0.##"));
            axis = a;
            base = 0;
        }
        axis.setLabelFont(AXIS_LABEL);
        axis.setTickLabelFont(TICK);
        axis.setLabelPaint(TEXT);
        axis.setTickLabelPaint(TEXT);
        CategoryAxis x = new CategoryAxis(null);
        x.setTickLabelFont(AXIS_LABEL);
        x.setTickLabelPaint(TEXT);
        x.setCategoryMargin(0.25);
        x.setLowerMargin(0.04);
        x.setUpperMargin(0.04);

        BarRenderer bars = new BarRenderer();
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        bars.setDrawBarOutline(false);
        bars.setItemMargin(0.04);
        bars.setMaximumBarWidth(0.12);
        bars.setBase(base);
        bars.setIncludeBaseInRange(!log);
        bars.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", format));
        bars.setDefaultItemLabelsVisible(true);
        bars.setDefaultItemLabelFont(VALUE);
        bars.setDefaultItemLabelPaint(TEXT);
        bars.setDefaultPositiveItemLabelPosition(new ItemLabelPosition(
                ItemLabelAnchor.OUTSIDE12, TextAnchor.CENTER_LEFT, TextAnchor.CENTER_LEFT, -Math.PI / 2));
        bars.setDefaultToolTipGenerator(new StandardCategoryToolTipGenerator("{0}, {1}: {2}", format));
        for (int i = 0; i < data.getRowCount(); i++) {
            bars.setSeriesPaint(i, palette.of((String) data.getRowKey(i)));
        }

        CategoryPlot plot = new CategoryPlot(data, x, axis, bars);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setOutlineVisible(false);
        plot.setRangeGridlinesVisible(true);
        plot.setRangeGridlinePaint(GRID);
        plot.setRangeGridlineStroke(new BasicStroke(0.8f));
        plot.setRangeMinorGridlinesVisible(log);
        plot.setRangeMinorGridlinePaint(MINOR_GRID);
        plot.setRangeMinorGridlineStroke(new BasicStroke(0.5f));
        plot.setAxisOffset(RectangleInsets.ZERO_INSETS);
        plot.setInsets(new RectangleInsets(4, 4, 4, 8));

        JFreeChart chart = new JFreeChart(title, TITLE, plot, true);
        chart.setBackgroundPaint((Paint) Color.WHITE);
        chart.getTitle().setPaint(TEXT);
        if (subtitle != null && !subtitle.isEmpty()) {
            TextTitle sub = new TextTitle(subtitle, SUBTITLE);
            sub.setPaint(new Color(0x555555));
            chart.addSubtitle(sub);
        }
        chart.getLegend().setPosition(RectangleEdge.BOTTOM);
        chart.getLegend().setItemFont(LEGEND);
        chart.getLegend().setItemPaint(TEXT);
        chart.getLegend().setFrame(BlockBorder.NONE);
        chart.setPadding(new RectangleInsets(8, 8, 6, 8));

        SVGGraphics2D g = new SVGGraphics2D(width, height);
        g.setDefsKeyPrefix(id + "-");
        chart.draw(g, new Rectangle(0, 0, width, height));
        return g.getSVGElement(id, true, new ViewBox(0, 0, width, height), null, null);
    }

    /** A Locale.ROOT decimal format (a dot for the fraction, commas between thousands). */
    static NumberFormat decimal(String pattern) {
        return new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(Locale.ROOT));
    }
}
