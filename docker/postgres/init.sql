-- One database per service (run once, on an empty data volume).
CREATE DATABASE academic;
CREATE DATABASE hours_bank;
CREATE DATABASE incidents;
CREATE DATABASE notifications;
CREATE DATABASE payslips;
