package dev.quickstore.lab.swizzle;

/**
 * Ordinary least squares, as Moss fitted his parameters (Moss 1992, section 5.4: "multiple regression of elapsed time
 * versus ..."): columns scaled to unit maximum, normal equations solved by Gaussian elimination with partial
 * pivoting. A column that is all zero (a term no run exercised) gets coefficient 0.
 */
public final class LinearFit {
    private LinearFit() {}

    /**
     * The fit: coefficients, the coefficient of determination r^2 (about the mean) and the F statistic Moss reports
     * beside it (section 5.4.3, footnote 8: variance explained by the regression over the variance left, per degree of
     * freedom; about the mean when a column is constant, the regression's intercept, else about zero, as for a
     * regression through the origin; infinite for an exact fit, NaN without a degree of freedom left).
     */
    public record Result(double[] coefficients, double r2, double f) {}

    public static Result fit(double[][] x, double[] y) {
        int rows = y.length;
        int cols = x[0].length;
        double[] scale = new double[cols];
        for (double[] row : x) {
            for (int j = 0; j < cols; j++) {
                scale[j] = Math.max(scale[j], Math.abs(row[j]));
            }
        }
        double[][] a = new double[cols][cols + 1];
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < cols; j++) {
                double xj = scale[j] == 0 ? 0 : x[r][j] / scale[j];
                for (int k = 0; k < cols; k++) {
                    double xk = scale[k] == 0 ? 0 : x[r][k] / scale[k];
                    a[j][k] += xj * xk;
                }
                a[j][cols] += xj * y[r];
            }
        }
        for (int j = 0; j < cols; j++) {
            if (scale[j] == 0) {
                a[j][j] = 1; // an unused term: coefficient 0
            }
        }
        double[] c = solve(a, cols);
        for (int j = 0; j < cols; j++) {
            c[j] = scale[j] == 0 ? 0 : c[j] / scale[j];
        }
        double mean = 0;
        for (double v : y) {
            mean += v / rows;
        }
        double ssr = 0;
        double sst = 0;
        for (int r = 0; r < rows; r++) {
            double p = 0;
            for (int j = 0; j < cols; j++) {
                p += c[j] * x[r][j];
            }
            ssr += (y[r] - p) * (y[r] - p);
            sst += (y[r] - mean) * (y[r] - mean);
        }
        int k = 0;
        boolean intercept = false;
        for (int j = 0; j < cols; j++) {
            if (scale[j] != 0) {
                k++;
                boolean constant = true;
                for (double[] row : x) {
                    constant &= row[j] == x[0][j];
                }
                intercept |= constant;
            }
        }
        double total = sst;
        int dfModel = k - 1;
        if (!intercept) {
            total = 0;
            for (double v : y) {
                total += v * v;
            }
            dfModel = k;
        }
        double f;
        if (rows - k <= 0 || dfModel <= 0) {
            f = Double.NaN;
        } else if (ssr == 0) {
            f = Double.POSITIVE_INFINITY;
        } else {
            f = ((total - ssr) / dfModel) / (ssr / (rows - k));
        }
        return new Result(c, sst == 0 ? 1 : 1 - ssr / sst, f);
    }

    private static double[] solve(double[][] a, int n) {
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int r = col + 1; r < n; r++) {
                if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) {
                    pivot = r;
                }
            }
            double[] tmp = a[col];
            a[col] = a[pivot];
            a[pivot] = tmp;
            if (Math.abs(a[col][col]) < 1e-12) {
                throw new IllegalArgumentException("the runs do not determine term " + col
                        + " of the fit (collinear or unexercised): add series that vary it");
            }
            for (int r = 0; r < n; r++) {
                if (r != col) {
                    double f = a[r][col] / a[col][col];
                    for (int k = col; k <= n; k++) {
                        a[r][k] -= f * a[col][k];
                    }
                }
            }
        }
        double[] c = new double[n];
        for (int j = 0; j < n; j++) {
            c[j] = a[j][n] / a[j][j];
        }
        return c;
    }
}
